// A host page on its own origin embeds the player (issue 18): it receives speechUnavailable
// (headless Chromium has no voices), a speakingEnded for every speakingStarted (interrupted when
// a new message cuts a reply) and disconnected {reason} when the server ends the conversation.
// In a 9:16 embed 420 px high, and in a wide one, captions and the chat never cover the face.
import type { Server } from 'node:http';
import { expect, type Frame, type Page } from '@playwright/test';
import { test } from './support/test';
import { echoAvatar } from './support/player-avatar';
import { E2E_PORT, HOST_PAGE_PORT } from './support/ports';
import { hostEvents, hostPageHtml, serveHostPage } from './support/host-page';

const SHOTS = 'test-results/screens';
const HOST_PORT = HOST_PAGE_PORT;
let host: Server;

// The host page: an iframe of the player whose events it records, and a form to command it.
const HOST_PAGE = hostPageHtml(
  [
    'connected',
    'disconnected',
    'reconnecting',
    'speakingStarted',
    'speakingEnded',
    'speechUnavailable',
    'userText',
    'assistantText',
    'error',
  ],
  'query',
);

test.beforeAll(async () => {
  host = await serveHostPage(HOST_PORT, HOST_PAGE);
});
test.afterAll(() => host.close());

const events = hostEvents;
const named = async (page: Page, name: string) => (await events(page)).filter((e) => e.event === name);

async function openHost(page: Page, src: string, w: number, h: number): Promise<Frame> {
  await page.setViewportSize({ width: Math.max(w + 40, 400), height: h + 40 });
  await page.goto(`http://127.0.0.1:${HOST_PORT}/?w=${w}&h=${h}&src=${encodeURIComponent(src)}`);
  await expect.poll(async () => (await named(page, 'ready')).length).toBe(1);
  const frame = page.frames().find((f) => f.url().includes('/avatar/'))!;
  await expect(frame.getByTestId('stage')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  return frame;
}

test('the host page gets speechUnavailable, matched speaking events and disconnected {reason}', async ({ page, request }) => {
  // German: the embedded voice speaks English only, and this Chromium has no voice at all.
  const avatar = await echoAvatar(request, { name: 'Host Hana', idleTimeout: 4, language: 'de-DE' });
  await openHost(page, `http://127.0.0.1:${E2E_PORT}/avatar/${avatar.id}?token=${avatar.token}&connect=true`, 800, 450);
  await expect.poll(async () => (await named(page, 'connected')).length).toBe(1);
  await page.evaluate(() =>
    (window as unknown as { sendChat(t: string): void }).sendChat(
      'This is a rather long message that the avatar will read back to us word by word, slowly and clearly, until it is cut.',
    ),
  );
  await expect.poll(async () => (await named(page, 'speakingStarted')).length).toBeGreaterThan(0);
  await expect.poll(async () => (await named(page, 'speechUnavailable')).length).toBe(1);
  // No voice at all: the notice says so and stays until the visitor closes it.
  const frame = page.frames().find((f) => f.url().includes('/avatar/'))!;
  await expect(frame.getByTestId('no-voice-notice')).toContainText('This browser has no voice for de-DE');
  await frame.getByTestId('no-voice-notice').getByRole('button', { name: 'Close' }).click();
  await expect(frame.getByTestId('no-voice-notice')).toBeHidden();
  // A new message cuts the reply being spoken.
  await page.evaluate(() => (window as unknown as { sendChat(t: string): void }).sendChat('Stop.'));
  await expect.poll(async () => (await named(page, 'speakingEnded')).some((e) => e.data?.interrupted === true)).toBe(true);
  // Idle: the server ends the conversation; the host page is told why.
  await expect.poll(async () => (await named(page, 'disconnected'))[0]?.data?.reason, { timeout: 30_000 }).toBe('idle');
  const all = await events(page);
  expect(all.filter((e) => e.event === 'speakingStarted').length).toBe(all.filter((e) => e.event === 'speakingEnded').length);
  expect((await named(page, 'speechUnavailable'))[0]!.data).toMatchObject({ language: expect.any(String) });
  await page.screenshot({ path: `${SHOTS}/host-page-disconnected.png` });
});

for (const embed of [
  { name: '9:16, 420 px high', w: 236, h: 420, ratio: '9:16' },
  { name: '16:9, 640 px wide', w: 640, h: 360, ratio: '16:9' },
]) {
  test(`in a ${embed.name} embed the captions and the chat history never cover the face`, async ({ page, request }) => {
    const avatar = await echoAvatar(request, { name: 'Frame Fay' });
    const frame = await openHost(
      page,
      `http://127.0.0.1:${E2E_PORT}/avatar/${avatar.id}?token=${avatar.token}&connect=true&screenAspectRatio=${embed.ratio}`,
      embed.w,
      embed.h,
    );
    const face = frame.getByTestId('avatar-face');
    await expect(face).toHaveAttribute('data-face-box', /\d/);
    await frame.getByLabel('Message').fill('Tell me a story about the sea, the wind and a small boat that sails far away.');
    await frame.getByLabel('Message').press('Enter');
    const captions = frame.getByTestId('captions');
    await expect(captions).not.toHaveText('');
    await page.waitForTimeout(500);
    const faceRect = await face.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const [x, y, w, h] = (el as HTMLElement).dataset.faceBox!.split(',').map(Number) as [number, number, number, number];
      return { x: r.left + x, y: r.top + y, w, h };
    });
    const box = async (el: ReturnType<Frame['getByTestId']>) => (await el.boundingBox())!;
    const overlap = (a: { x: number; y: number; width: number; height: number }) =>
      a.x < faceRect.x + faceRect.w && faceRect.x < a.x + a.width && a.y < faceRect.y + faceRect.h && faceRect.y < a.y + a.height;
    const caption = await box(captions);
    const input = await box(frame.getByLabel('Message'));
    await page.screenshot({ path: `${SHOTS}/embed-${embed.w}x${embed.h}-captions.png` });
    console.log(embed.name, 'face', JSON.stringify(faceRect), 'caption', JSON.stringify(caption), 'input', JSON.stringify(input));
    expect(overlap(caption)).toBe(false);
    expect(caption.y + caption.height).toBeLessThanOrEqual(input.y);
    const history = frame.getByTestId('chat-history');
    if (await history.count()) expect(overlap(await box(history))).toBe(false);
  });
}
