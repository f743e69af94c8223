import { describe, expect, it } from 'vitest';
import { sameOriginPath } from './safe-path';

const ORIGIN = 'https://parla.example';

describe('sameOriginPath', () => {
  it('keeps a path and query on our origin, normalised', () => {
    expect(sameOriginPath('/avatar/a1?token=t&connect=true', ORIGIN)).toBe('/avatar/a1?token=t&connect=true');
    expect(sameOriginPath('/avatar/./a1/../a2', ORIGIN)).toBe('/avatar/a2');
    expect(sameOriginPath('/avatar/a1#part', ORIGIN)).toBe('/avatar/a1');
  });

  it('refuses every way to another host or scheme', () => {
    const tricks = [
      '//evil.example',
      '/.//evil.example',
      '/..//evil.example',
      '/././/evil.example',
      '/\\evil.example',
      '/./\\evil.example',
      '\\\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      'evil.example',
      '',
      ' /avatar/a1',
    ];
    for (const raw of tricks) expect(sameOriginPath(raw, ORIGIN), JSON.stringify(raw)).toBeNull();
    expect(sameOriginPath(undefined, ORIGIN)).toBeNull();
  });
});
