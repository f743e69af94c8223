import { describe, expect, it } from 'vitest';
import { glbHeaderProblem, isCssColor, isSixteenByNine } from './media-checks';

describe('media checks', () => {
  it('accepts CSS colours and refuses anything else', () => {
    for (const ok of [
      '#0b1020',
      '#fff',
      '#ffff',
      '#0b1020cc',
      'rgb(11, 16, 32)',
      'rgba(0,0,0,0.5)',
      'hsl(210 50% 40%)',
      'Navy',
      'transparent',
    ])
      expect(isCssColor(ok), ok).toBe(true);
    for (const bad of ['notacolor', '#12', '#ggg', 'rgb(1,2)', 'url(x)', '', 'red; background:url(x)'])
      expect(isCssColor(bad), bad).toBe(false);
  });

  it('accepts 16:9 images only', () => {
    expect(isSixteenByNine(1920, 1080)).toBe(true);
    expect(isSixteenByNine(1366, 768)).toBe(true);
    expect(isSixteenByNine(1024, 1024)).toBe(false);
    expect(isSixteenByNine(1080, 1920)).toBe(false);
  });

  it('checks the glTF magic, the version and the declared length', () => {
    const header = (magic: string, version: number, length: number) => {
      const b = new Uint8Array(12);
      b.set([...magic].map((c) => c.charCodeAt(0)));
      new DataView(b.buffer).setUint32(4, version, true);
      new DataView(b.buffer).setUint32(8, length, true);
      return b;
    };
    expect(glbHeaderProblem(header('glTF', 2, 100), 100)).toBeNull();
    expect(glbHeaderProblem(header('fake', 2, 100), 100)).toMatch(/not a binary glTF/);
    expect(glbHeaderProblem(header('glTF', 1, 100), 100)).toMatch(/version 1/);
    expect(glbHeaderProblem(header('glTF', 2, 100), 60)).toMatch(/incomplete/);
  });
});
