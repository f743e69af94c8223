// The end user's conversation when the server ends it or drops it (issue 18): an idle timeout
// ends with a plain message and a working "Start again"; a killed pipeline node shows
// "reconnecting" and the conversation comes back; a microphone with no device says so and does
// not loop. Screenshots go to test-results/screens/.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium, expect, type Page } from '@playwright/test';
import { test } from './support/test';
import { CHROMIUM } from './support/chromium';
import { apiLogin } from './support/conversation';
import { E2E_ADMIN, E2E_APP_KEY } from './support/accounts';
import { echoAvatar } from './support/player-avatar';
import { E2E_PORT } from './support/ports';
import { E2E_NODE_SECRET } from './support/stand-ins/runtime';

const SHOTS = 'test-results/screens';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
let node: ChildProcess | null = null;

test.afterAll(() => {
  if (node && node.exitCode === null) node.kill('SIGKILL');
});

async function chat(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text);
  await page.getByLabel('Message').press('Enter');
  await expect(page.locator('.msg.assistant').last()).toHaveText(text);
}

test('an idle timeout ends the conversation with a visible message, and Start again opens a new one', async ({ page, request }) => {
  const avatar = await echoAvatar(request, { name: 'Idle Ida', idleTimeout: 3 });
  await page.goto(`/avatar/${avatar.id}?token=${avatar.token}&connect=true`);
  await chat(page, 'Hello there');
  const ended = page.getByTestId('conversation-ended');
  await expect(ended).toContainText('nothing was said', { timeout: 30_000 });
  await expect(page.getByLabel('Message')).toBeDisabled();
  await page.screenshot({ path: `${SHOTS}/player-idle-ended.png` });
  await ended.getByRole('button', { name: 'Start again' }).click();
  await expect(ended).toBeHidden();
  await chat(page, 'I am back');
});

test('a killed pipeline node shows "reconnecting" and the conversation recovers', async ({ page, request }) => {
  const admin = `Bearer ${E2E_APP_KEY} ${await apiLogin(request, E2E_ADMIN.email, E2E_ADMIN.password)}`;
  node = spawn(
    process.execPath,
    [
      'scripts/run-ts.mjs',
      'apps/server/src/node-main.ts',
      '--server',
      `http://127.0.0.1:${E2E_PORT}`,
      '--name',
      'e2e-doomed',
      '--capacity',
      '4',
    ],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', NODE_SECRET: E2E_NODE_SECRET },
      stdio: 'ignore',
    },
  );
  const nodeRow = async () => {
    const list = (await (await request.get('/api/list_vps', { headers: { authorization: admin } })).json()) as {
      vpsList: { name: string; status: string; sessions: number }[];
    };
    return list.vpsList.find((v) => v.name === 'e2e-doomed' && v.status !== 'OFFLINE');
  };
  await expect.poll(async () => (await nodeRow())?.status, { timeout: 30_000 }).toBe('AVAILABLE');

  const avatar = await echoAvatar(request, { name: 'Node Nora' });
  await page.goto(`/avatar/${avatar.id}?token=${avatar.token}&connect=true`);
  await chat(page, 'Are you on the node?');
  await expect.poll(async () => (await nodeRow())?.sessions).toBe(1);

  node.kill('SIGKILL');
  await expect(page.getByTestId('reconnecting')).toBeVisible({ timeout: 15_000 });
  await page.screenshot({ path: `${SHOTS}/player-reconnecting.png` });
  await expect(page.getByTestId('reconnecting')).toBeHidden({ timeout: 30_000 });
  await expect(page.getByTestId('conversation-ended')).toBeHidden();
  await chat(page, 'Still there?');
});

test('a microphone with no device shows a message, goes off and does not restart in a loop', async ({ request }) => {
  const avatar = await echoAvatar(request, { name: 'Mic Mia' });
  // A browser whose audio capture device cannot be opened (its fake device reads a file that does
  // not exist): recognition starts, then fails with audio-capture, as with no microphone.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      '--use-file-for-fake-audio-capture=/nonexistent/no-microphone.wav',
    ],
  });
  try {
    const page = await browser.newPage();
    await page.addInitScript(() => {
      const w = window as unknown as {
        webkitSpeechRecognition?: { prototype: { start(): void } };
        recognitionStarts: number;
        recognitionErrors: string[];
      };
      w.recognitionStarts = 0;
      w.recognitionErrors = [];
      const proto = w.webkitSpeechRecognition?.prototype;
      if (!proto) return;
      const start = proto.start;
      proto.start = function (this: { addEventListener(t: string, f: (e: { error: string }) => void): void }) {
        w.recognitionStarts++;
        this.addEventListener('error', (e) => w.recognitionErrors.push(e.error));
        return start.call(this);
      };
    });
    await page.goto(`http://127.0.0.1:${E2E_PORT}/avatar/${avatar.id}?token=${avatar.token}`);
    await page.getByRole('button', { name: "LET'S CHAT" }).click();
    const mic = page.getByRole('button', { name: 'Microphone' });
    await expect(mic).toHaveAttribute('aria-pressed', 'false');
    await page.waitForTimeout(1500);
    expect(await page.evaluate(() => (window as unknown as { recognitionStarts: number }).recognitionStarts)).toBe(0);
    await mic.click();
    await expect(page.getByRole('status')).toContainText(/microphone|Speech recognition/i, { timeout: 15_000 });
    await expect(mic).toHaveAttribute('aria-pressed', 'false');
    await page.waitForTimeout(3000);
    const { starts, errors } = await page.evaluate(() => {
      const w = window as unknown as { recognitionStarts: number; recognitionErrors: string[] };
      return { starts: w.recognitionStarts, errors: w.recognitionErrors };
    });
    test.info().annotations.push({ type: 'recognition', description: `starts ${starts}, errors ${errors.join(',')}` });
    console.log(`recognition starts ${starts}, errors ${errors.join(',')}`);
    expect(errors).toContain('audio-capture');
    await expect(page.getByRole('status')).toContainText('No microphone was found');
    expect(starts).toBeLessThanOrEqual(3);
    await page.screenshot({ path: `${SHOTS}/player-mic-no-device.png` });
  } finally {
    await browser.close();
  }
});
