// @vitest-environment node
// Every 3D avatar of the catalogue has a viseme atlas (decision 124) for browsers without WebGL:
// a valid image-avatar manifest, rigid, with a frame for each of the 15 visemes, the resting smile
// and three eye states, every sprite inside its WebP atlas and on the picture.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { imageAvatarModel, type ImageAvatarSprite } from '@parla/shared/schemas/catalogue';
import { VISEMES } from '@parla/shared/visemes';

const here = dirname(fileURLToPath(import.meta.url));
const CATALOGUE = resolve(here, '../../../server/assets/catalogue');
const index = JSON.parse(readFileSync(join(CATALOGUE, 'catalogue.json'), 'utf8')) as {
  avatars: { id: string; type: string; atlas?: string }[];
};

/** A WebP's canvas size, from its VP8X header (an image with alpha always has one). */
function webpSize(buf: Buffer): { width: number; height: number } {
  expect(buf.toString('ascii', 0, 4)).toBe('RIFF');
  expect(buf.toString('ascii', 12, 16)).toBe('VP8X');
  return { width: buf.readUIntLE(24, 3) + 1, height: buf.readUIntLE(27, 3) + 1 };
}

describe('the 3D avatars’ viseme atlases', () => {
  const avatars = index.avatars.filter((a) => a.type === '2d' || a.type === '3d');
  it.each(avatars.map((a) => [a.id, a] as const))('%s has a rigid atlas with every mouth and eye frame inside it', (_id, a) => {
    expect(a.atlas).toBeTruthy();
    const manifest = imageAvatarModel.parse(JSON.parse(readFileSync(join(CATALOGUE, a.atlas!), 'utf8')));
    expect(manifest.rigid).toBe(true);
    const atlas = webpSize(readFileSync(join(CATALOGUE, dirname(a.atlas!), manifest.atlas)));
    const sprites: ImageAvatarSprite[] = [
      ...VISEMES.map((v) => manifest.mouth[v]),
      manifest.smile,
      manifest.eyes.open,
      manifest.eyes.half,
      manifest.eyes.closed,
      manifest.layers.body,
    ];
    for (const s of sprites) {
      expect(s.sx + s.w).toBeLessThanOrEqual(atlas.width);
      expect(s.sy + s.h).toBeLessThanOrEqual(atlas.height);
      expect(s.x + s.w).toBeLessThanOrEqual(manifest.width);
      expect(s.y + s.h).toBeLessThanOrEqual(manifest.height);
    }
    // The mouth frames are real regions (the morphs changed pixels), below the eyes.
    expect(manifest.mouth.aa.w * manifest.mouth.aa.h).toBeGreaterThan(400);
    expect(manifest.mouth.aa.y).toBeGreaterThan(manifest.eyes.open.y);
  });
});
