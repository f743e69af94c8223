import { describe, expect, it } from 'vitest';
import { LINK_MAX_CHARS, PAGE_TOO_DEEP, parseHtml } from './knowledge.html';

const nested = (levels: number) =>
  `<html><head><title>Deep</title></head><body>${'<div>'.repeat(levels)}Inner text${'</div>'.repeat(levels)}</body></html>`;

describe('the HTML reader on hostile pages', () => {
  it('refuses a page nested deeper than it reads, and reads one just under the bound without recursion', () => {
    expect(() => parseHtml(nested(400_000))).toThrow(PAGE_TOO_DEEP);
    expect(() => parseHtml(nested(1200))).toThrow(PAGE_TOO_DEEP);
    // 996 <div> inside <html> and <body>: 998 open elements, under the bound.
    expect(parseHtml(nested(996))).toMatchObject({ title: 'Deep', text: 'Inner text' });
  });

  it('keeps a page’s links up to a bound, and drops links too long to follow', () => {
    const long = `/${'x'.repeat(LINK_MAX_CHARS)}`;
    const links = Array.from({ length: 2500 }, (_, i) => `<a href="/p${i}">${i}</a>`).join('');
    const page = parseHtml(`<body><a href="${long}">long</a>${links}</body>`, 'https://example.com/');
    expect(page.links).toHaveLength(2000);
    expect(page.links[0]).toBe('https://example.com/p0');
  });
});
