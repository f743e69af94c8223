import { describe, expect, it } from 'vitest';
import { chunkText, CHUNK_MAX_TOKENS, estimateTokens, normalizeText } from './knowledge.chunking';
import { parseHtml } from './knowledge.html';
import { linksAllowed, parseRobots, siteKey } from './knowledge.robots';
import { queryWords } from './knowledge.query';

describe('chunking', () => {
  it('keeps a short text in one chunk', () => {
    expect(chunkText('Hello.\n\nWorld.')).toEqual(['Hello.\n\nWorld.']);
    expect(chunkText('   \n\n  ')).toEqual([]);
  });

  it('chunks Markdown as it reads: no comments, table tags or reference-link markup; code, other tags and web addresses kept', () => {
    const markdown = [
      '## `os.uptime()`',
      '<!-- YAML\nadded: v0.3.3\nchanges:\n  - description: the result is no longer a float\n-->',
      'Returns the system uptime in seconds, see [`os.loadavg()`][] and [the wiki](https://example.org/uptime).',
      '<table><tr><td><code>EACCES</code></td><td>Permission denied.</td></tr></table>',
      '```c\n#include <zlib.h>\n```',
      '[`os.loadavg()`]: #osloadavg\n[MSDN]: https://docs.example.com/naming',
    ].join('\n\n');
    expect(chunkText(markdown)).toEqual([
      [
        '## `os.uptime()`',
        'Returns the system uptime in seconds, see `os.loadavg()` and [the wiki](https://example.org/uptime).',
        'EACCES Permission denied.',
        '```c\n#include <zlib.h>\n```',
        '[MSDN]: https://docs.example.com/naming',
      ].join('\n\n'),
    ]);
  });

  it('splits long text into chunks of at most about 800 tokens that overlap', () => {
    const paragraphs = Array.from({ length: 120 }, (_, i) => `Paragraph ${i}: ${'lorem ipsum dolor sit amet '.repeat(8).trim()}.`);
    const chunks = chunkText(paragraphs.join('\n\n'));
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) expect(estimateTokens(c)).toBeLessThanOrEqual(CHUNK_MAX_TOKENS);
    for (let i = 1; i < chunks.length; i++) {
      const lastOfPrevious = chunks[i - 1]!.split('\n\n').pop()!;
      expect(chunks[i]!.startsWith(lastOfPrevious)).toBe(true);
    }
    // Every paragraph is somewhere.
    for (const p of paragraphs) expect(chunks.some((c) => c.includes(p))).toBe(true);
  });

  it('splits a huge paragraph at sentences and an endless word by length', () => {
    const sentences = Array.from({ length: 400 }, (_, i) => `Sentence number ${i} is here.`).join(' ');
    const chunks = chunkText(sentences);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(CHUNK_MAX_TOKENS * 4);
    const word = chunkText('x'.repeat(10_000));
    for (const c of word) expect(c.length).toBeLessThanOrEqual(CHUNK_MAX_TOKENS * 4);
  });

  it('removes NUL and control characters PostgreSQL would refuse', () => {
    expect(normalizeText('a\u0000b\u0007c\r\nd')).toBe('abc\nd');
  });
});

describe('reading HTML', () => {
  it('keeps the main content, lists and tables, and drops scripts, navigation and forms', () => {
    const page = parseHtml(
      `<html><head><title> Shop  </title><meta name="robots" content="noindex, nofollow"></head><body>
       <nav>Menu</nav><main><h1>Prices</h1><ul><li>One</li><li>Two</li></ul>
       <table><tr><th>Item</th><th>Cost</th></tr><tr><td>Bell</td><td>5</td></tr></table>
       <script>evil()</script><form>Search</form><a href="/a#x">A</a><a href="mailto:x@y.z">M</a><a rel="nofollow" href="/b">B</a></main></body></html>`,
      'https://shop.example/',
    );
    expect(page.title).toBe('Shop');
    expect(page.text).toContain('Prices');
    expect(page.text).toContain('- One\n- Two');
    expect(page.text).toContain('Item | Cost\nBell | 5');
    expect(page.text).not.toMatch(/Menu|evil|Search/);
    expect(page.links).toEqual(['https://shop.example/a']);
    expect(page).toMatchObject({ noindex: true, nofollow: true });
  });
});

describe('robots.txt', () => {
  it('applies the most specific group and the longest rule, Allow winning ties', () => {
    const robots = parseRobots(
      ['User-agent: *', 'Disallow: /private/', 'Allow: /private/open', 'Disallow: /*.pdf$', '', 'User-agent: OtherBot', 'Disallow: /'].join(
        '\n',
      ),
    );
    expect(robots.allowed('/')).toBe(true);
    expect(robots.allowed('/private/x')).toBe(false);
    expect(robots.allowed('/private/open/page')).toBe(true);
    expect(robots.allowed('/files/a.pdf')).toBe(false);
    expect(robots.allowed('/files/a.pdf?x=1')).toBe(true);
    const ours = parseRobots('User-agent: *\nDisallow: /\n\nUser-agent: ParlaBot\nDisallow: /admin');
    expect(ours.allowed('/docs')).toBe(true);
    expect(ours.allowed('/admin/x')).toBe(false);
    expect(parseRobots('User-agent: *\nDisallow:').allowed('/anything')).toBe(true);
  });

  it("keeps a page's links the site's rules allow (www. is the same site), and leaves other sites' links to the crawler", () => {
    const rules = { kind: 'file', text: 'User-agent: *\nDisallow: /private/' } as const;
    const site = siteKey(new URL('https://shop.example/'));
    const links = [
      'https://shop.example/a',
      'https://www.shop.example/private/b',
      'https://shop.example/private/c',
      'https://other.example/private/d',
      'not a url',
    ];
    expect(linksAllowed(links, site, rules)).toEqual(['https://shop.example/a', 'https://other.example/private/d']);
    expect(linksAllowed(links, site, { kind: 'none' })).toEqual(['https://other.example/private/d']);
    expect(linksAllowed(links, site, { kind: 'all' })).toHaveLength(4);
  });
});

describe('search queries', () => {
  it('builds an any-word query from letters and digits only', () => {
    expect(queryWords("What's the price? (2024) & | !")).toEqual(['what', 's', 'the', 'price', '2024']);
    expect(queryWords('!!! ???')).toEqual([]);
  });
});
