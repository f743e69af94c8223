// Issue 35 in Chromium (no browser voices here, no keys, no speech server: the README's quick
// start): a new customer's echo avatar answers aloud with the voice shipped with the server
// (decision 122). The page's audio output is tapped (the signal is not silence), the face shows
// mouth shapes while it plays, and no "no voice" notice appears.
import { expect } from '@playwright/test';
import { test } from './support/test';
import { echoAvatar } from './support/player-avatar';
import { audioTap, installAudioTap } from './support/audio-tap';
import { E2E_PORT } from './support/ports';

const SHOTS = 'test-results/screens';

test('with no keys and no speech server, the echo avatar speaks with the embedded voice: audio heard, lips moving, no notice', async ({
  page,
  request,
}) => {
  const avatar = await echoAvatar(request, { name: 'Quick Start' });
  await page.addInitScript(installAudioTap);
  await page.goto(`http://127.0.0.1:${E2E_PORT}/avatar/${avatar.id}?token=${avatar.token}`);
  await page.getByRole('button', { name: "LET'S CHAT" }).click();
  await expect(page.getByTestId('stage')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  const history = page.getByRole('log', { name: 'Chat history' });
  await expect(history.locator('.msg.assistant').first()).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('avatar-face').evaluate((face) => {
    const seen: string[] = [];
    (window as unknown as { visemes: string[] }).visemes = seen;
    new MutationObserver(() => seen.push((face as HTMLElement).dataset.viseme ?? '')).observe(face, {
      attributes: true,
      attributeFilter: ['data-viseme'],
    });
  });
  const before = (await audioTap(page.mainFrame())).onsets.length;
  const line = 'Would you like a quick tour of our new features today?';
  await page.getByLabel('Message').fill(line);
  await page.getByLabel('Message').press('Enter');
  await expect(history.locator('.msg.assistant').last()).toHaveText(line, { timeout: 30_000 });
  // Heard: the page's output carries sound, beginning after the message was sent.
  await expect.poll(async () => (await audioTap(page.mainFrame())).onsets.length, { timeout: 20_000 }).toBeGreaterThan(before);
  expect((await audioTap(page.mainFrame())).maxLevel).toBeGreaterThan(0.05);
  // Lips on the speech's own phonemes: open vowels and closures while it plays.
  await expect(page.getByTestId('avatar-face')).toHaveAttribute('data-viseme', /^(aa|O|E|I|U)$/, { timeout: 10_000 });
  await page.screenshot({ path: `${SHOTS}/embedded-voice-chromium-talking.png` });
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { visemes: string[] }).visemes.filter((v) => v !== 'sil').length))
    .toBeGreaterThan(5);
  await expect(page.getByTestId('avatar-face')).toHaveAttribute('data-viseme', 'sil', { timeout: 20_000 });
  await expect(page.getByTestId('no-voice-notice')).toHaveCount(0);
});
