// Flite's phoneme line is the embedded voice's only timing: it drives the lips and the captions.
import { describe, expect, it } from 'vitest';
import { parsePhones, piecesOf, visemesOf, wordsOf } from './phonemes';

const HELLO =
  'pau:0.164 hh:0.255 ax:0.304 l:0.412 ow:0.523 dh:0.572 eh:0.664 r:0.817 pau:0.921 hh:1.013 aw:1.161 aa:1.229 r:1.300 y:1.414 uw:1.605 pau:1.870 \n';

describe("the embedded voice's phonemes", () => {
  it("maps Flite's ARPAbet to the Oculus visemes on the audio's clock, hh taking the next vowel's shape and equal neighbours merged", () => {
    const v = visemesOf(parsePhones(HELLO));
    expect(v.slice(0, 5)).toEqual([
      { viseme: 'sil', start: 0, end: 0.164 },
      { viseme: 'aa', start: 0.164, end: 0.304 },
      { viseme: 'nn', start: 0.304, end: 0.412 },
      { viseme: 'O', start: 0.412, end: 0.523 },
      { viseme: 'TH', start: 0.523, end: 0.572 },
    ]);
    // "how are": hh aw aa → one open mouth; the reply ends closed at the audio's end.
    expect(v).toContainEqual({ viseme: 'aa', start: 0.921, end: 1.229 });
    expect(v.at(-1)).toEqual({ viseme: 'sil', start: 1.605, end: 1.87 });
  });

  it('skips what it cannot read and never goes back in time', () => {
    expect(parsePhones('pau:0.1 zz x:abc k:0.05 aa:0.3 <script>:1')).toEqual([
      { phone: 'pau', start: 0, end: 0.1 },
      { phone: 'aa', start: 0.1, end: 0.3 },
    ]);
    expect(visemesOf(parsePhones('qq:0.2 m:0.3'))).toEqual([{ viseme: 'PP', start: 0.2, end: 0.3 }]);
  });

  it("shares each phrase's speech among its words, and the whole speech when the pauses do not match the punctuation", () => {
    const words = wordsOf('Hello there. How are you?', parsePhones(HELLO));
    expect(words.map((w) => w.word)).toEqual(['Hello', 'there', 'How', 'are', 'you']);
    expect(words[0]).toMatchObject({ start: 0.164 });
    expect(words[1]!.end).toBeCloseTo(0.817, 3);
    expect(words[2]!.start).toBeCloseTo(0.921, 3);
    expect(words[4]!.end).toBeCloseTo(1.605, 3);
    const loose = wordsOf('Hello there how are you', parsePhones(HELLO));
    expect(loose).toHaveLength(5);
    expect(loose[0]!.start).toBeCloseTo(0.164, 3);
    expect(loose[4]!.end).toBeCloseTo(1.605, 3);
    expect(wordsOf('...', parsePhones('pau:0.2'))).toEqual([]);
  });

  it('cuts text into pieces Flite takes: tokens of at most 40 characters, pieces of at most 240, after a comma where one is near', () => {
    const token = 'x'.repeat(100);
    expect(piecesOf(token)).toEqual(['x'.repeat(40) + ' ' + 'x'.repeat(40) + ' ' + 'x'.repeat(20)]);
    const long = 'The quick brown fox jumps over the lazy dog, and then it runs away. '.repeat(30);
    const pieces = piecesOf(long);
    expect(pieces.every((p) => p.length <= 240)).toBe(true);
    expect(pieces.join(' ')).toBe(long.trim());
    expect(pieces[0]!.endsWith(',') || pieces[0]!.endsWith('.')).toBe(true);
    expect(piecesOf('a\u0000b\nc  ')).toEqual(['a b c']);
    expect(piecesOf('   ')).toEqual([]);
  });
});
