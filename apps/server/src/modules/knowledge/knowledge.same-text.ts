// Whether two passages are the same text but for whitespace: `a.replace(/\s+/g, ' ').trim()` equal
// to the same of `b` (identical passages count once in a search's answer, knowledge.search.ts).
// Compared in place: making both normalised copies cost a search about 100 KiB of garbage (its
// kept passages' whole text, each time), the largest share of ours (issue 37, decision 424).

/** JavaScript's `\s` (and `trim`'s): WhiteSpace and LineTerminator, code unit by code unit. */
export function isSpace(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function skipSpace(s: string, at: number): number {
  while (at < s.length && isSpace(s.charCodeAt(at))) at++;
  return at;
}

/** `a` and `b` with every run of whitespace one space, trimmed, are equal. */
export function sameText(a: string, b: string): boolean {
  let i = skipSpace(a, 0);
  let j = skipSpace(b, 0);
  for (;;) {
    // At either's end, only trailing whitespace may be left in the other (trim drops it).
    if (i >= a.length || j >= b.length) return skipSpace(a, i) >= a.length && skipSpace(b, j) >= b.length;
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    const sa = isSpace(ca);
    if (sa !== isSpace(cb)) return false;
    if (sa) {
      i = skipSpace(a, i);
      j = skipSpace(b, j);
    } else if (ca !== cb) return false;
    else {
      i++;
      j++;
    }
  }
}

/** The text holds something besides whitespace (its normalised form is not empty). */
export const hasText = (s: string): boolean => /\S/.test(s);
