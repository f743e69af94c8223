// The 3D catalogue's faces in Chromium (issue 18, item 11): every 3D avatar of the catalogue on
// the dial page and in conversation, screenshotted (test-results/faces/*.png, looked at); in
// conversation the head fills at least a fifth of the stage's height (the renderer's projected
// head box, mirrored on data-face-box), in a wide and in a 9:16 stage; with no speech the head
// still moves (two frames of the head's region differ), the eyes turn (data-gaze, read back from
// the eyeball nodes) and the mouth stays at rest; speaking "ah" opens the mouth: its region
// darkens (the inside of the mouth) and shows light, colourless teeth, compared with the closed mouth.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from './support/test';
import { createCustomer } from './support/accounts';
import { saveAvatar } from './support/conversation';
import { adminProxyAuth } from './support/player-avatar';
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

  test("in software WebGL a 3D face draws with the light profile (the catalogue's lighter face, FXAA instead of multisampling, only the figure's region at most 60,000 pixels, at most 8 frames a second at rest); render=full keeps the full one", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 640, height: 480 });
    // Counts the frames drawn: three.js clears the canvas's own framebuffer once per frame (the
    // FXAA passes clear their targets too: those are not counted).
    await page.addInitScript(() => {
      const w = window as unknown as { clears: number };
      w.clears = 0;
      const clear = WebGL2RenderingContext.prototype.clear;
      WebGL2RenderingContext.prototype.clear = function (mask: number) {
        if (this.getParameter(this.FRAMEBUFFER_BINDING) === null) w.clears++;
        clear.call(this, mask);
      };
    });
    const canvas = () =>
      page.locator('canvas.face-canvas').evaluate((c: HTMLCanvasElement) => {
        const gl = c.getContext('webgl2')!;
        return { antialias: gl.getContextAttributes()!.antialias, width: c.width, height: c.height, cssWidth: c.clientWidth };
      });
    for (const render of ['', '&render=full']) {
      await page.goto(`/avatar/preview?appearanceId=ub-aisha&connect=true&hideChatHistory=true&hideChatInput=true${scene('2d')}${render}`);
      const face = page.getByTestId('avatar-face');
      await expect(page.getByTestId('stage')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
      // The model fetched: the light one (a coarser face, decision 128) in software WebGL only.
      const glbs = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((e) => e.name.split('/').pop()!)
          .filter((n) => n.endsWith('.glb')),
      );
      expect(glbs).toEqual([expect.stringMatching(render ? /^ub-aisha\.[0-9a-f]+\.glb$/ : /^ub-aisha-light\.[0-9a-f]+\.glb$/)]);
      if (render) {
        await expect(face).toHaveAttribute('data-render-profile', 'gpu');
        await expect(face).toHaveAttribute('data-edges', 'msaa');
        expect((await canvas()).antialias).toBe(true);
        continue;
      }
      await expect(face).toHaveAttribute('data-render-profile', 'software');
      // Smooth edges all the same: FXAA over the finished picture (issue 36, item 2).
      await expect(face).toHaveAttribute('data-edges', 'fxaa');
      const c = await canvas();
      expect(c.antialias).toBe(false);
      // Only the figure's region of the stage, at most 0.75 of its CSS pixels and 60,000 pixels in
      // all, scaled up by the browser (decision 128).
      expect(c.cssWidth).toBeLessThan(640 * 0.8);
      expect(c.width).toBeLessThanOrEqual(Math.floor(c.cssWidth * 0.75) + 1);
      expect(c.width * c.height).toBeLessThanOrEqual(60_000);
      // The greeting over, the face at rest: about three seconds hold at most 8 frames a second
      // (and two more). The seconds are the page's own clock: on a loaded machine the timer fires
      // late (CI: 28 frames in what a clock outside the page called three seconds).
      await expect(page.getByTestId('captions')).toBeHidden({ timeout: 30_000 });
      const { drawn, seconds } = await page.evaluate(async () => {
        const w = window as unknown as { clears: number };
        const [clears, t0] = [w.clears, performance.now()];
        await new Promise((r) => setTimeout(r, 3000));
        return { drawn: w.clears - clears, seconds: (performance.now() - t0) / 1000 };
      });
      expect(drawn).toBeGreaterThan(0);
      expect(drawn, `${drawn} frames in ${seconds.toFixed(2)} s`).toBeLessThanOrEqual(Math.floor(seconds * 8) + 2);
    }
  });

  test('in software WebGL, while a 3D face speaks, the frames between two of the whole figure redraw only the mouth, or show a kept picture of it', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 640, height: 480 });
    await page.goto(`/avatar/preview?appearanceId=ub-aisha&connect=true&hideChatHistory=true${scene('2d')}`);
    await expect(page.getByTestId('stage')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
    await expect(page.getByTestId('avatar-face')).toHaveAttribute('data-render-profile', 'software');
    await expect(page.getByTestId('captions')).toBeHidden({ timeout: 30_000 });
    await page.getByLabel('Message').fill('hello there, I am talking to you about the weather and the time of day, all day long.');
    await page.getByLabel('Message').press('Enter');
    await expect(page.getByTestId('captions')).toBeVisible({ timeout: 30_000 });
    // The canvas keeps its last frame (preserveDrawingBuffer), so it can be read between frames,
    // with the mouth's kept pictures over it (the same size and place: mouth-cache.ts): at every
    // animation frame for three seconds, the box of the pixels that changed since the last.
    const { width, height, changes, pictures } = await page.evaluate(async () => {
      const canvas = document.querySelector('canvas.face-canvas') as HTMLCanvasElement;
      const overlay = document.querySelector('canvas.face-mouth') as HTMLCanvasElement;
      const [w, h] = [canvas.width, canvas.height];
      const seen = Object.assign(document.createElement('canvas'), { width: w, height: h }).getContext('2d', { willReadFrequently: true })!;
      let pictures = 0;
      const copy = Object.assign(document.createElement('canvas'), { width: w, height: h }).getContext('2d', { willReadFrequently: true })!;
      const found: { w: number; h: number }[] = [];
      let last: Uint8ClampedArray | null = null;
      for (const t0 = performance.now(); performance.now() - t0 < 3000;) {
        await new Promise((r) => requestAnimationFrame(r));
        copy.clearRect(0, 0, w, h);
        copy.drawImage(canvas, 0, 0);
        copy.drawImage(overlay, 0, 0);
        seen.clearRect(0, 0, w, h);
        seen.drawImage(overlay, 0, 0);
        if (seen.getImageData(0, 0, w, h).data.some((v, i) => i % 4 === 3 && v > 0)) pictures++;
        const now = copy.getImageData(0, 0, w, h).data;
        let [x0, y0, x1, y1] = [w, h, -1, -1];
        for (let i = 0; last && i < now.length; i += 4) {
          let d = 0;
          for (let k = 0; k < 4; k++) d = Math.max(d, Math.abs(now[i + k]! - last[i + k]!));
          if (d <= 2) continue;
          const [x, y] = [(i / 4) % w, Math.floor(i / 4 / w)];
          [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
        }
        if (x1 >= 0) found.push({ w: x1 - x0 + 1, h: y1 - y0 + 1 });
        last = now;
      }
      return { width: w, height: h, changes: found, pictures };
    });
    // Mouth frames change a small box (the mouth's rectangle and FXAA's reach around it); the
    // frames of the whole figure change the head's outline as it sways.
    const mouthOnly = changes.filter((c) => c.w * c.h <= 0.2 * width * height);
    const whole = changes.filter((c) => c.w * c.h > 0.2 * width * height);
    const seen = JSON.stringify(changes);
    expect(mouthOnly.length, seen).toBeGreaterThanOrEqual(2);
    expect(whole.length, seen).toBeGreaterThanOrEqual(2);
    // A viseme said again shows its kept picture rather than a frame of WebGL.
    expect(pictures, 'animation frames showing a kept picture of the mouth').toBeGreaterThan(0);
  });

  // The full-body avatars' framing is in faces-full-body.spec.ts.
  framingTests((a) => !a.id.startsWith('fb-'));

  test('saying "ah" opens the mouth: the mouth region shows the dark inside of the mouth and the teeth', async ({ page, request }) => {
    test.slow();
    // A smaller stage: software WebGL draws it faster.
    await page.setViewportSize({ width: 480, height: 480 });
    const customer = await createCustomer(request, 'mouth');
    const auth = await adminProxyAuth(request, customer.email); // the Advanced tab is the administrators'
    // Every caption shown, from the page's start: on a loaded machine the greeting can be said and
    // gone before the stage reads as ready (a CI run of 2026-11-30 missed it twice that way).
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { captionsSeen: string[] }).captionsSeen = seen;
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="captions"]')?.textContent;
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    for (const id of ['ub-aisha', 'fb-ethan']) {
      // Saved avatars that speak slowly (the Advanced tab's words per second, 0.4): each "ah"
      // holds the open mouth for about two seconds, longer than a frame of software WebGL takes
      // on a loaded machine (at three words a second a frame could miss every "aa": CI failures).
      const a = await saveAvatar(request, auth, {
        name: `Mouth ${id}`,
        dhType: AVATARS.find((x) => x.id === id)!.type,
        appearanceId: id,
        // German: a language the embedded voice does not speak (it speaks English at its own pace,
        // too fast for software WebGL to picture every "aa"), and this Chromium has no voice, so the
        // mouth follows the text at the slow pace. The face is under test here, not the voice.
        customData: { words_per_sec: 0.4, agent_pipeline_config: { stt: { provider: 'default', languages: 'de-DE' } } },
        wakeUpMessage: 'Hi.',
      });
      await page.goto(`/avatar/${a.id}?token=${a.token}&connect=true&hideChatHistory=true`);
      await expect(page.getByTestId('stage')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
      const face = page.getByTestId('avatar-face');
      // The greeting is said first (slowly); the closed mouth is pictured once it is over.
      const captions = page.getByTestId('captions');
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { captionsSeen: string[] }).captionsSeen.includes('Hi.')), {
          timeout: 30_000,
        })
        .toBe(true);
      await expect(captions).toBeHidden({ timeout: 30_000 });
      await expect(face).toHaveAttribute('data-viseme', 'sil');
      const clip = await mouthClip(page);
      const closed = await page.screenshot({ clip });
      await page.getByLabel('Message').fill('ah ah ah.');
      await page.getByLabel('Message').press('Enter');
      await expect(face).toHaveAttribute('data-viseme', 'aa', { timeout: 60_000 });
      // Software WebGL is slow: take pictures at once while the sentence lasts, measure after. The
      // mouth rests between words, so a picture is taken only while the face says "aa", a little
      // apart, until four are in or the sentence is over (the captions go).
      const pictures: Buffer[] = [];
      const until = Date.now() + 30_000;
      while (pictures.length < 4 && Date.now() < until) {
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
      writeFileSync(join(SHOTS, `mouth-${id}-closed.png`), closed);
      writeFileSync(join(SHOTS, `mouth-${id}-open.png`), open.png);
      expect(
        open.dark,
        `${id}: dark share of the mouth region, closed ${closedDark.toFixed(3)} → open ${open.dark.toFixed(3)}`,
      ).toBeGreaterThan(closedDark + 0.03);
      // The teeth show: light, nearly colourless pixels (skin and lips are coloured).
      const [closedTeeth, openTeeth] = [await teethShare(page, closed), await teethShare(page, open.png)];
      expect(
        openTeeth,
        `${id}: teeth share of the mouth region, closed ${closedTeeth.toFixed(3)} → open ${openTeeth.toFixed(3)}`,
      ).toBeGreaterThan(closedTeeth + 0.005);
    }
  });
  test('without WebGL a 3D avatar is its viseme atlas: a picture whose mouth opens on "ah"', async ({ page }) => {
    await page.setViewportSize({ width: 640, height: 480 });
    // A browser without WebGL (as headless Firefox): no WebGL context is ever given.
    await page.addInitScript(() => {
      const get = HTMLCanvasElement.prototype.getContext as (this: HTMLCanvasElement, type: string, ...rest: unknown[]) => unknown;
      (HTMLCanvasElement.prototype as unknown as { getContext: typeof get }).getContext = function (type, ...rest) {
        return /webgl/.test(type) ? null : get.call(this, type, ...rest);
      };
    });
    await page.goto(`/avatar/preview?appearanceId=ub-aisha&connect=true&hideChatHistory=true${scene('2d')}`);
    await expect(page.getByTestId('stage')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
    await expect(page.getByTestId('stage-notice')).toContainText('cannot draw 3D');
    const face = page.getByTestId('avatar-face');
    await expect(face).toHaveAttribute('data-render-profile', 'image');
    const atlas = await page.evaluate(() => performance.getEntriesByType('resource').some((e) => /-atlas\.[0-9a-f]+\.webp/.test(e.name)));
    expect(atlas, 'the viseme atlas is drawn, not the still picture').toBe(true);
    const captions = page.getByTestId('captions');
    await expect(captions).toBeHidden({ timeout: 30_000 });
    await expect(face).toHaveAttribute('data-viseme', 'sil');
    const clip = await mouthClip(page);
    const closed = await page.screenshot({ clip });
    await page.getByLabel('Message').fill('ah ah ah ah ah ah.');
    await page.getByLabel('Message').press('Enter');
    await expect(face).toHaveAttribute('data-viseme', 'aa', { timeout: 30_000 });
    const pictures: Buffer[] = [];
    const until = Date.now() + 20_000;
    while (pictures.length < 4 && Date.now() < until) {
      if ((await face.getAttribute('data-viseme')) === 'aa') {
        pictures.push(await page.screenshot({ clip }));
        if (pictures.length === 1) await page.screenshot({ path: join(SHOTS, 'no-webgl-ub-aisha-mid-word.png') });
      } else if (pictures.length > 0 && !(await captions.isVisible())) break;
      else await page.waitForTimeout(20);
    }
    const closedDark = await darkShare(page, closed);
    let open = -1;
    for (const png of pictures) open = Math.max(open, await darkShare(page, png));
    // The picture's open mouth shows its teeth too (light): its dark share grows by half to double
    // (seen: 0.032 → 0.061, and 0.038 → 0.058 under CI's load, where a shot can fall in the
    // cross-fade between two pictures), a smaller step than the live face's. A still picture
    // changes by nothing at all.
    expect(open, `dark share of the mouth region, closed ${closedDark.toFixed(3)} → open ${open.toFixed(3)}`).toBeGreaterThan(
      Math.max(closedDark * 1.3, closedDark + 0.012),
    );
  });
});
