// The 3D catalogue's faces in Chromium (issue 18, item 11), shared by e2e/faces.spec.ts (the
// upper-body avatars, the dial page and the open mouth) and e2e/faces-full-body.spec.ts (the
// full-body avatars): two files so that scripts/e2e.mjs can give them to two jobs, as each page
// load of software WebGL costs seconds. See faces.spec.ts for what is checked.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import { test } from './test';

const here = dirname(fileURLToPath(import.meta.url));
export const SHOTS = join(here, '../../test-results/faces');
const catalogue = JSON.parse(readFileSync(join(here, '../../apps/server/assets/catalogue/catalogue.json'), 'utf8')) as {
  avatars: { id: string; type: string }[];
};
export const AVATARS = catalogue.avatars.filter((a) => a.type !== 'image');

/** The stages a conversation is seen in: a laptop window and a 9:16 embed. */
const STAGES = [
  { name: 'wide', viewport: { width: 1024, height: 640 }, params: '' },
  { name: 'portrait', viewport: { width: 420, height: 746 }, params: '&screenAspectRatio=9:16' },
] as const;

export const scene = (type: string) => (type === '3d' ? '&environmentId=env-lounge' : '&backgroundId=bg-office');

async function faceBox(page: Page) {
  const face = page.getByTestId('avatar-face');
  await expect(face).toHaveAttribute('data-face-box', /\d/, { timeout: 30_000 });
  const [x, y, w, h] = (await face.getAttribute('data-face-box'))!.split(',').map(Number) as [number, number, number, number];
  return { x, y, w, h };
}

/** The framing and idle-motion tests of the avatars `which` keeps, one page load per avatar and stage. */
export function framingTests(which: (a: { id: string }) => boolean): void {
  // One page load per avatar and stage (software WebGL makes each load cost seconds): the wide
  // stage checks every avatar's framing and its idle motion; the 9:16 stage, the full-body
  // avatars, whose framing is the one the camera decides.
  for (const a of AVATARS.filter(which)) {
    for (const stage of STAGES.filter((s) => s.name === 'wide' || a.id.startsWith('fb-'))) {
      const tall = stage.name === 'portrait';
      test(`${a.id} in a ${stage.name} stage: ${tall ? 'the figure shows head to knees, the head at the top' : "the head fills at least a fifth of the stage's height, and with no speech it still moves (breathing, blinks, eyes, head)"}`, async ({
        page,
      }) => {
        test.slow(); // software WebGL
        await page.setViewportSize(stage.viewport);
        await page.goto(
          `/avatar/preview?appearanceId=${a.id}&connect=true&hideChatHistory=true&hideChatInput=true${scene(a.type)}${stage.params}`,
        );
        await expect(page.getByTestId('stage')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
        const face = page.getByTestId('avatar-face');
        const box = await faceBox(page);
        const r = (await face.boundingBox())!;
        if (tall) {
          // Head to knees (issue 36, item 4; framing.test.ts proves the knees are on the stage):
          // the head near the top, smaller than in a head shot but still a face to watch.
          expect(box.y / r.height, `${a.id}: head at ${box.y}px of ${r.height}px`).toBeLessThan(0.12);
          expect(box.h / r.height, `${a.id}: head ${box.h}px of ${r.height}px`).toBeGreaterThan(1 / 8);
          expect(box.h / r.height, `${a.id}: head ${box.h}px of ${r.height}px`).toBeLessThan(0.2);
        } else expect(box.h / r.height, `${a.id}: head ${box.h}px of ${r.height}px`).toBeGreaterThanOrEqual(0.2);
        // The head is on the stage, not cut by its edges.
        expect(box.y, a.id).toBeGreaterThanOrEqual(0);
        expect(box.x, a.id).toBeGreaterThanOrEqual(0);
        expect(box.x + box.w, a.id).toBeLessThanOrEqual(r.width);
        await page.screenshot({ path: join(SHOTS, `${stage.name}-${a.id}.png`) });
        if (stage.name !== 'wide') return;

        const clip = {
          x: r.x + Math.max(0, box.x),
          y: r.y + Math.max(0, box.y),
          width: Math.min(box.w, r.width),
          height: Math.min(box.h, r.height),
        };
        // The eyes move on their own while silent (saccades): the eyeball's rotation changes.
        await expect(face).toHaveAttribute('data-gaze', /\d/);
        const gaze0 = await face.getAttribute('data-gaze');
        await expect
          .poll(() => face.getAttribute('data-gaze'), { message: `${a.id}: the eyes move`, timeout: 20_000, intervals: [300] })
          .not.toBe(gaze0);
        const first = await page.screenshot({ clip });
        // Frames keep coming; wait until a later one differs from the first (idle motion never stops).
        let later = first;
        await expect
          .poll(
            async () => {
              later = await page.screenshot({ clip });
              return later.equals(first);
            },
            { timeout: 20_000, intervals: [700] },
          )
          .toBe(false);
        await expect(face, `${a.id} is not speaking`).toHaveAttribute('data-viseme', 'sil');
        await expect(page.getByTestId('captions')).toBeHidden();
        mkdirSync(SHOTS, { recursive: true });
        writeFileSync(join(SHOTS, `idle-${a.id}-a.png`), first);
        writeFileSync(join(SHOTS, `idle-${a.id}-b.png`), later);
      });
    }
  }
}

/** The mouth's region on the page: the lower middle of the face's box. */
export async function mouthClip(page: Page) {
  const box = await faceBox(page);
  const r = (await page.getByTestId('avatar-face').boundingBox())!;
  return { x: r.x + box.x + box.w * 0.25, y: r.y + box.y + box.h * 0.55, width: box.w * 0.5, height: box.h * 0.33 };
}

/** A picture's pixels (RGBA) as the browser decodes it, and each pixel's R + G + B with their median. */
async function pixels(page: Page, png: Buffer): Promise<{ rgba: number[]; light: number[]; median: number }> {
  const rgba = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d')!;
    g.drawImage(img, 0, 0);
    return Array.from(g.getImageData(0, 0, c.width, c.height).data);
  }, png.toString('base64'));
  const light: number[] = [];
  for (let i = 0; i < rgba.length; i += 4) light.push(rgba[i]! + rgba[i + 1]! + rgba[i + 2]!);
  const median = [...light].sort((x, y) => x - y)[light.length >> 1]!;
  return { rgba, light, median };
}

/**
 * The share of dark pixels in a picture — under half its median brightness, so skin tone and
 * light do not matter: the inside of an open mouth.
 */
export async function darkShare(page: Page, png: Buffer): Promise<number> {
  const { light, median } = await pixels(page, png);
  return light.filter((v) => v < median * 0.5).length / light.length;
}

/** The share of light, nearly colourless pixels in a picture (brighter than its median, R, G and B within 20 %: warm light tints them): teeth. */
export async function teethShare(page: Page, png: Buffer): Promise<number> {
  const { rgba, light, median } = await pixels(page, png);
  let n = 0;
  for (let i = 0; i < rgba.length; i += 4) {
    const [r, g, b] = [rgba[i]!, rgba[i + 1]!, rgba[i + 2]!];
    if (r + g + b > median && Math.max(r, g, b) - Math.min(r, g, b) < 0.2 * Math.max(r, g, b)) n++;
  }
  return n / light.length;
}
