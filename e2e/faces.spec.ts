// The 3D catalogue's faces in Chromium (issue 18, item 11): every 3D avatar of the catalogue on
// the dial page and in conversation, screenshotted (test-results/faces/*.png, looked at); in
// conversation the head fills at least a fifth of the stage's height (the renderer's projected
// head box, mirrored on data-face-box), in a wide and in a 9:16 stage; with no speech the head
// still moves (two frames of the head's region differ), the eyes turn (data-gaze, read back from
// the eyeball nodes) and the mouth stays at rest; speaking "ah" opens the mouth: its region
// darkens (the inside of the mouth) and shows light, colourless teeth, compared with the closed mouth.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';

const here = dirname(fileURLToPath(import.meta.url));
const SHOTS = join(here, '../test-results/faces');
const catalogue = JSON.parse(readFileSync(join(here, '../apps/server/assets/catalogue/catalogue.json'), 'utf8')) as {
  avatars: { id: string; type: string }[];
};
const AVATARS = catalogue.avatars.filter((a) => a.type !== 'image');

/** The stages a conversation is seen in: a laptop window and a 9:16 embed. */
const STAGES = [
  { name: 'wide', viewport: { width: 1024, height: 640 }, params: '' },
  { name: 'portrait', viewport: { width: 420, height: 746 }, params: '&screenAspectRatio=9:16' },
] as const;

const scene = (type: string) => (type === '3d' ? '&environmentId=env-lounge' : '&backgroundId=bg-office');

async function faceBox(page: Page) {
  const face = page.getByTestId('avatar-face');
  await expect(face).toHaveAttribute('data-face-box', /\d/, { timeout: 30_000 });
  const [x, y, w, h] = (await face.getAttribute('data-face-box'))!.split(',').map(Number) as [number, number, number, number];
  return { x, y, w, h };
}

test.describe('the 3D catalogue faces', () => {
  test.describe.configure({ timeout: 120_000 });

  test('every 3D catalogue avatar shows its picture on the dial page', async ({ page }) => {
    expect(AVATARS.length).toBeGreaterThanOrEqual(6);
    await page.setViewportSize({ width: 1024, height: 640 });
    for (const a of AVATARS) {
      await page.goto(`/avatar/preview?appearanceId=${a.id}${scene(a.type)}`);
      const photo = page.locator('img.dial-photo');
      await expect(photo).toBeVisible();
      await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      await page.screenshot({ path: join(SHOTS, `dial-${a.id}.png`) });
    }
  });

  // One page load per avatar and stage (software WebGL makes each load cost seconds): the wide
  // stage checks every avatar's framing and its idle motion; the 9:16 stage, the full-body
  // avatars, whose framing is the one the camera decides.
  for (const a of AVATARS) {
    for (const stage of STAGES.filter((s) => s.name === 'wide' || a.id.startsWith('fb-'))) {
      test(`${a.id} in a ${stage.name} stage: the head fills at least a fifth of the stage's height${stage.name === 'wide' ? ', and with no speech it still moves (breathing, blinks, eyes, head)' : ''}`, async ({
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
        expect(box.h / r.height, `${a.id}: head ${box.h}px of ${r.height}px`).toBeGreaterThanOrEqual(0.2);
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

  test('saying "ah" opens the mouth: the mouth region shows the dark inside of the mouth and the teeth', async ({ page }) => {
    test.slow();
    // A smaller stage: software WebGL draws it faster, so the echo's words (one timer each,
    // run between frames) arrive sooner.
    await page.setViewportSize({ width: 480, height: 480 });
    for (const id of ['ub-aisha', 'fb-ethan']) {
      const a = AVATARS.find((x) => x.id === id)!;
      await page.goto(`/avatar/preview?appearanceId=${a.id}&connect=true&hideChatHistory=true${scene(a.type)}`);
      await expect(page.getByTestId('stage')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
      const face = page.getByTestId('avatar-face');
      await expect(face).toHaveAttribute('data-viseme', 'sil');
      const clip = await mouthClip(page);
      const closed = await page.screenshot({ clip });
      // Sixteen "ah"s: once the sentence is in, the mouth stays on "aa" for most of five seconds.
      await page.getByLabel('Message').fill(`${Array.from({ length: 16 }, () => 'ah').join(' ')}.`);
      await page.getByLabel('Message').press('Enter');
      await expect(face).toHaveAttribute('data-viseme', 'aa', { timeout: 60_000 });
      // Software WebGL is slow: take pictures at once while the sentence lasts, measure after.
      const pictures: Buffer[] = [];
      // Under load a frame can lag the viseme (the mouth eases open): a few pictures, a little apart.
      for (let i = 0; i < 8 && (i === 0 || (await face.getAttribute('data-viseme')) !== 'sil'); i++) {
        pictures.push(await page.screenshot({ clip }));
        await page.waitForTimeout(200);
      }
      const closedDark = await darkShare(page, closed);
      let open = { dark: -1, png: closed };
      for (const png of pictures) {
        const dark = await darkShare(page, png);
        if (dark > open.dark) open = { dark, png };
      }
      mkdirSync(SHOTS, { recursive: true });
      writeFileSync(join(SHOTS, `mouth-${a.id}-closed.png`), closed);
      writeFileSync(join(SHOTS, `mouth-${a.id}-open.png`), open.png);
      expect(
        open.dark,
        `${a.id}: dark share of the mouth region, closed ${closedDark.toFixed(3)} → open ${open.dark.toFixed(3)}`,
      ).toBeGreaterThan(closedDark + 0.03);
      // The teeth show: light, nearly colourless pixels (skin and lips are coloured).
      const [closedTeeth, openTeeth] = [await teethShare(page, closed), await teethShare(page, open.png)];
      expect(
        openTeeth,
        `${a.id}: teeth share of the mouth region, closed ${closedTeeth.toFixed(3)} → open ${openTeeth.toFixed(3)}`,
      ).toBeGreaterThan(closedTeeth + 0.005);
    }
  });
});

/** The mouth's region on the page: the lower middle of the face's box. */
async function mouthClip(page: Page) {
  const box = await faceBox(page);
  const r = (await page.getByTestId('avatar-face').boundingBox())!;
  return { x: r.x + box.x + box.w * 0.25, y: r.y + box.y + box.h * 0.55, width: box.w * 0.5, height: box.h * 0.33 };
}

/**
 * The share of dark pixels in a picture — under half its median brightness, so skin tone and
 * light do not matter: the inside of an open mouth.
 */
async function darkShare(page: Page, png: Buffer): Promise<number> {
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d')!;
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const light: number[] = [];
    for (let i = 0; i < d.length; i += 4) light.push(d[i]! + d[i + 1]! + d[i + 2]!);
    const median = [...light].sort((x, y) => x - y)[light.length >> 1]!;
    return light.filter((v) => v < median * 0.5).length / light.length;
  }, png.toString('base64'));
}

/** The share of light, nearly colourless pixels in a picture (brighter than its median, R, G and B within 20 %: warm light tints them): teeth. */
async function teethShare(page: Page, png: Buffer): Promise<number> {
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d')!;
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const light: number[] = [];
    for (let i = 0; i < d.length; i += 4) light.push(d[i]! + d[i + 1]! + d[i + 2]!);
    const median = [...light].sort((x, y) => x - y)[light.length >> 1]!;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      const [r, gg, b] = [d[i]!, d[i + 1]!, d[i + 2]!];
      if (r + gg + b > median && Math.max(r, gg, b) - Math.min(r, gg, b) < 0.2 * Math.max(r, gg, b)) n++;
    }
    return n / light.length;
  }, png.toString('base64'));
}
