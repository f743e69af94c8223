import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractInChild } from './knowledge.extract-runner';
import { extractChildScript } from './knowledge.extract-stage';

const page = {
  kind: 'html' as const,
  data: Buffer.from('<html><head><title>Fares</title></head><body><p>A day pass costs 6 EUR.</p></body></html>'),
};

describe('the extraction child, bundled once per process', () => {
  it('is staged once and reads a page in plain Node', async () => {
    const script = await extractChildScript();
    expect(script).toMatch(/\.mjs$/);
    expect(await extractChildScript()).toBe(script);
    expect(await extractInChild(page)).toEqual({ text: expect.stringContaining('A day pass costs 6 EUR.'), title: 'Fares' });
  });

  it('is staged again when its directory was removed (a temporary-files cleaner)', async () => {
    const before = await extractChildScript();
    rmSync(dirname(before), { recursive: true, force: true });
    expect(await extractInChild(page)).toMatchObject({ title: 'Fares' });
    expect(await extractChildScript()).not.toBe(before);
  });
});
