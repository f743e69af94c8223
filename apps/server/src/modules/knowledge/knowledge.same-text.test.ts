// sameText must answer what comparing the normalised copies answered (knowledge.search.ts's
// dedupe before issue 37's change): checked against the regular expression itself.
import { describe, expect, it } from 'vitest';
import { hasText, isSpace, sameText } from './knowledge.same-text';

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('passages equal but for whitespace', () => {
  it('takes as whitespace exactly what \\s does, code unit by code unit', () => {
    const differ: string[] = [];
    for (let c = 0; c <= 0xffff; c++) if (isSpace(c) !== /\s/.test(String.fromCharCode(c))) differ.push(`U+${c.toString(16)}`);
    expect(differ).toEqual([]);
  });

  it('agrees with comparing the normalised copies', () => {
    const texts = [
      '',
      ' ',
      '\n\t ',
      'a',
      ' a',
      'a ',
      'a b',
      'a  b',
      'a\u00a0b',
      'a\nb ',
      ' a\r\n b\t',
      'ab',
      'a bc',
      'a b c',
      'Refunds take 5 days.',
      'Refunds  take 5\ndays.',
      'Refunds take 5 days. ',
      'Refunds take 5 days!',
    ];
    for (const a of texts)
      for (const b of texts) {
        expect(sameText(a, b), JSON.stringify([a, b])).toBe(norm(a) === norm(b));
        expect(hasText(a)).toBe(norm(a) !== '');
      }
  });
});
