// The player on a phone (issue 39, item 8): on a 390 × 844 page, with a notice showing, a chat
// history and a caption being said, nothing covers the face and no text covers other text.
import { expect, type Locator, type Page } from '@playwright/test';
import { test } from './support/test';
import { echoAvatar } from './support/player-avatar';

const SHOTS = 'test-results/screens';

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const meets = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The face's box in page pixels (the renderer's eyes-to-chin frame, data-face-box). */
async function faceRect(page: Page): Promise<Rect> {
  return page.getByTestId('avatar-face').evaluate((el) => {
    const r = el.getBoundingClientRect();
    const [x, y, w, h] = (el as HTMLElement).dataset.faceBox!.split(',').map(Number) as [number, number, number, number];
    return { x: r.left + x, y: r.top + y, width: w, height: h };
  });
}

/** The visible boxes of what a locator finds (a hidden history has none). */
async function boxes(l: Locator): Promise<Rect[]> {
  const out: Rect[] = [];
  for (const el of await l.all()) {
    const b = await el.boundingBox();
    if (b && b.width > 0 && b.height > 0) out.push(b);
  }
  return out;
}

test('on a 390 px phone the notice, the chat history and the captions cover neither the face nor each other', async ({ page, request }) => {
  // German: the embedded voice speaks English only and this Chromium has no voice, so the
  // player shows its lasting "no voice" notice while the captions say the reply.
  const avatar = await echoAvatar(request, { name: 'Phone Pia', language: 'de-DE' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/avatar/${avatar.id}?token=${avatar.token}&connect=true`);
  await expect(page.getByTestId('stage')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await expect(page.getByTestId('avatar-face')).toHaveAttribute('data-face-box', /\d/);
  const message = page.getByLabel('Message');
  await message.fill('Good morning.');
  await message.press('Enter');
  await expect(page.getByRole('log', { name: 'Chat history' }).locator('.msg.assistant').last()).toHaveText('Good morning.');
  await message.fill('Tell me a story about the sea, the wind and a small boat that sails far away into the night.');
  await message.press('Enter');
  await expect(page.getByTestId('no-voice-notice')).toContainText('This browser has no voice for de-DE');
  const captions = page.getByTestId('captions');
  await expect(captions).toContainText('Tell me a story');
  await page.waitForTimeout(500);

  const face = await faceRect(page);
  const [notice] = await boxes(page.getByTestId('no-voice-notice'));
  const [caption] = await boxes(captions);
  const bubbles = await boxes(page.locator('.msg'));
  const [input] = await boxes(message);
  await page.screenshot({ path: `${SHOTS}/phone-390-notice-captions.png` });
  console.log(
    'face',
    JSON.stringify(face),
    'notice',
    JSON.stringify(notice),
    'caption',
    JSON.stringify(caption),
    'bubbles',
    bubbles.length,
  );
  expect(notice && caption && input).toBeTruthy();
  // The conversation so far stays in view, between the notice and the captions.
  expect(bubbles.length).toBeGreaterThan(0);
  expect(meets(caption!, face), 'the captions cover the face').toBe(false);
  expect(meets(notice!, face), 'the notice covers the face').toBe(false);
  expect(meets(notice!, caption!), 'the notice covers the captions').toBe(false);
  expect(caption!.y + caption!.height).toBeLessThanOrEqual(input!.y);
  for (const b of bubbles) {
    expect(meets(b, face), 'a chat bubble covers the face').toBe(false);
    expect(meets(b, notice!), 'the notice covers a chat bubble').toBe(false);
    expect(meets(b, caption!), 'the captions cover a chat bubble').toBe(false);
  }
  // Everything stays on the page: nothing is pushed off a phone's screen.
  for (const b of [notice!, caption!, ...bubbles]) {
    expect(b.x).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width).toBeLessThanOrEqual(390);
  }
});
