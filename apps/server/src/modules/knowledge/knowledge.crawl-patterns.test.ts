import { describe, expect, it } from 'vitest';
import { crawlRequest } from '@parla/shared/schemas/knowledge';
import { pathMatcher } from './knowledge.crawl-patterns';

const matches = (pattern: string, path: string) => pathMatcher([pattern])!(path);

describe('crawl path patterns', () => {
  it('match as the globs people write: * within a segment, ** across segments, ?, classes and braces, ignoring case', () => {
    const cases: [string, string, boolean][] = [
      ['/support/**', '/support/warranty', true],
      ['/support/**', '/support/a/b', true],
      ['/support/**', '/support', true],
      ['/support/**', '/supportx', false],
      ['/support/*', '/support/warranty', true],
      ['/support/*', '/support/a/b', false],
      ['/*', '/', false],
      ['/about', '/about/', true],
      ['/docs/*.html', '/docs/a.html', true],
      ['/docs/*.html', '/docs/a/b.html', false],
      ['/a/**/b', '/a/b', true],
      ['/a/**/b', '/a/x/y/b', true],
      ['/{blog,news}/*', '/news/x', true],
      ['/{blog,news}/*', '/shop/x', false],
      ['/p?ge', '/page', true],
      ['/[abc]x', '/bx', true],
      ['/[!abc]x', '/dx', true],
      ['/a.b', '/axb', false],
      ['/a+(b)', '/a+(b)', true],
      ['/Blog/**', '/blog/Post', true],
      ['/café', '/caf%C3%A9', true],
      ['/100%', '/100%', true],
    ];
    for (const [pattern, path, expected] of cases) expect(matches(pattern, path), `${pattern} ~ ${path}`).toBe(expected);
  });

  it('answer at once for the patterns a backtracking matcher never finishes', () => {
    const worst = pathMatcher(['/*a*a*a*a*b', '/**/a*a*a*a*c', '/*a*a*a*a*a*a*a*a*a*b'])!;
    for (let n = 100; n <= 2000; n += 100) expect(worst(`/${'a'.repeat(n)}`)).toBe(false);
    expect(worst(`/${'a'.repeat(3000)}b`)).toBe(false); // longer than a link the crawler follows
  });

  it('are refused past five wildcards with a clear message, and a ** counts once', () => {
    const parse = (include: string[]) => crawlRequest.safeParse({ url: 'https://example.com/', include });
    expect(parse(['/**/a*b?c/*']).success).toBe(true);
    const refused = parse(['/*a*a*a*a*a*b']);
    expect(refused.success).toBe(false);
    expect(refused.error!.issues.map((i) => i.message)).toEqual(['A path pattern may have at most 5 wildcards (* or ?).']);
  });
});
