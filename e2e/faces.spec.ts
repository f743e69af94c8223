// The 3D catalogue's faces in Chromium (issue 18, item 11): every 3D avatar of the catalogue on
// the dial page and in conversation, screenshotted (test-results/faces/*.png, looked at); in
// conversation the head fills at least a fifth of the stage's height (the renderer's projected
// head box, mirrored on data-face-box), in a wide and in a 9:16 stage; with no speech the head
// still moves (two frames of the head's region differ), the eyes turn (data-gaze, read back from
// the eyeball nodes) and the mouth stays at rest; speaking "ah" opens the mouth: its region
// darkens (the inside of the mouth) and shows light, colourless teeth, compared with the closed mouth.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { AVATARS, darkShare, framingTests, mouthClip, scene, SHOTS, teethShare } from './support/faces';

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

  // The full-body avatars' framing is in faces-full-body.spec.ts.
  framingTests((a) => !a.id.startsWith('fb-'));

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
      // Under load a frame can lag the viseme and the mouth rests between words, so a picture is
      // taken only while the face says "aa", a little apart, until six are in or the sentence is
      // over (the captions go).
      const pictures: Buffer[] = [];
      const captions = page.getByTestId('captions');
      const until = Date.now() + 30_000;
      while (pictures.length < 6 && Date.now() < until) {
        if ((await face.getAttribute('data-viseme')) === 'aa') {
          pictures.push(await page.screenshot({ clip }));
          await page.waitForTimeout(150);
        } else if (pictures.length > 0 && !(await captions.isVisible())) break;
        else await page.waitForTimeout(30);
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
