// Issue 13 in Chromium: Handle STT Response through a real host page on its own port (browser
// speech recognition is driven through the player's own seam — the page's SpeechRecognition
// constructor, replaced before the player loads, since headless Chromium has no recognition);
// a customer reads and downloads a transcript from the portal; an end user downloads their own
// transcript from the player when Enable Transcript Download allows it, and sees no button when not.
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { test } from './support/test';
import { createCustomer, E2E_ADMIN, E2E_APP_KEY, signIn, type Customer } from './support/accounts';
import { apiLogin, saveAvatar, type SavedAvatar } from './support/conversation';
import { adminProxyAuth } from './support/player-avatar';
import { E2E_PORT, HOST_PAGE_PORT } from './support/ports';
import { screenshot } from './support/screenshots';
import { hostEvents, hostPageHtml, serveHostPage } from './support/host-page';

const HOST_PORT = HOST_PAGE_PORT;
let host: Server;

// The host page: embeds the player, records its events, and sends back what the player
// recognised only when the test says so (window.sendChat).
const HOST_PAGE = hostPageHtml(['connected', 'userText', 'assistantText', 'sttInterim'], { width: 720, height: 420 });

/** A SpeechRecognition that hears "book a" (interim) then "book a table" (final) once started. */
const FAKE_RECOGNITION = () => {
  class FakeRecognition {
    lang = '';
    continuous = false;
    interimResults = false;
    onresult: ((e: unknown) => void) | null = null;
    onerror: ((e: unknown) => void) | null = null;
    onend: (() => void) | null = null;
    private heard = false;
    start() {
      if (this.heard) return;
      this.heard = true;
      const result = (text: string, isFinal: boolean) => ({
        resultIndex: 0,
        results: [Object.assign([{ transcript: text }], { isFinal })],
      });
      setTimeout(() => this.onresult?.(result('book a', false)), 400);
      setTimeout(() => this.onresult?.(result('book a table', true)), 4000);
    }
    stop() {}
    abort() {}
  }
  (window as unknown as { webkitSpeechRecognition: unknown; SpeechRecognition: unknown }).webkitSpeechRecognition = FakeRecognition;
  (window as unknown as { SpeechRecognition: unknown }).SpeechRecognition = FakeRecognition;
};

test.beforeAll(async () => {
  host = await serveHostPage(HOST_PORT, HOST_PAGE);
});
test.afterAll(() => host.close());

async function appearance(request: APIRequestContext): Promise<{ id: string; type: string }> {
  return ((await (await request.get('/api/catalogue/avatars')).json()).avatars as { id: string; type: string }[]).find(
    (a) => a.type === 'image',
  )!;
}

/** A customer's avatar saved through the admin proxy (the Advanced fields only it may set). */
async function avatarOf(
  request: APIRequestContext,
  customer: Customer,
  name: string,
  extra: Record<string, unknown>,
): Promise<SavedAvatar> {
  const auth = await adminProxyAuth(request, customer.email);
  const look = await appearance(request);
  const base = { name, dhType: look.type, appearanceId: look.id };
  const created = await saveAvatar(request, auth, base);
  return saveAvatar(request, auth, { ...base, id: created.id, updated: created.updated, ...extra });
}

/** The customer asks for PRO; an administrator approves it. */
async function makePro(request: APIRequestContext, customer: Customer): Promise<void> {
  const session = await apiLogin(request, customer.email, customer.password);
  const ask = await request.post('/api/account_upgrade', {
    headers: { authorization: `Bearer ${E2E_APP_KEY} ${session}` },
    data: { subType: 2 },
  });
  expect(ask.ok(), await ask.text()).toBe(true);
  const admin = { authorization: `Bearer ${E2E_APP_KEY} ${await apiLogin(request, E2E_ADMIN.email, E2E_ADMIN.password)}` };
  const list = (await (await request.get('/api/admin/customers', { headers: admin })).json()) as {
    customers: { id: string; email: string }[];
  };
  const userId = list.customers.find((c) => c.email === customer.email)!.id;
  const ok = await request.post('/api/admin/subscription_decision', { headers: admin, data: { userId, approve: true } });
  expect(ok.ok(), await ok.text()).toBe(true);
}

async function say(page: Page, text: string, reply: string): Promise<void> {
  await page.getByLabel('Message').fill(text);
  await page.getByLabel('Message').press('Enter');
  await expect(page.getByRole('log', { name: 'Chat history' }).locator('.msg.assistant').last()).toContainText(reply, { timeout: 20_000 });
}

const events = hostEvents;

test('Handle STT Response: the host page receives what the player recognised and sends it; the chat shows what the host sent', async ({
  page,
  request,
}) => {
  const customer = await createCustomer(request, 'stthost');
  const avatar = await avatarOf(request, customer, 'Host Hugo', {
    handleSttResponse: true,
    wakeUpMessage: 'Hello from Hugo!',
    customData: { transcriptionStreaming: true },
  });
  await page.addInitScript(FAKE_RECOGNITION);
  await page.goto(
    `http://127.0.0.1:${HOST_PORT}/?src=${encodeURIComponent(`http://127.0.0.1:${E2E_PORT}/avatar/${avatar.id}?token=${avatar.token}&connect=true`)}`,
  );
  const frame = page.frameLocator('iframe');
  await expect(frame.getByRole('log', { name: 'Chat history' })).toContainText('Hello from Hugo!', { timeout: 30_000 });
  await frame.getByRole('button', { name: 'Microphone' }).click();
  // Transcription Streaming: the interim text is shown while "spoken" and forwarded.
  await expect(frame.getByTestId('interim')).toHaveText('book a');
  await screenshot(page, 'settings-stt-interim');
  await expect
    .poll(async () => (await events(page)).find((e) => e.event === 'sttResponse')?.data?.text, { timeout: 15_000 })
    .toBe('book a table');
  expect((await events(page)).filter((e) => e.event === 'sttInterim').map((e) => e.data?.text)).toContain('book a');
  // Not sent by the player: nothing of it in the chat until the host sends it.
  await page.waitForTimeout(800);
  await expect(frame.getByRole('log', { name: 'Chat history' })).not.toContainText('book a table');
  await screenshot(page, 'settings-stt-host-received');
  await page.evaluate(() => (window as unknown as { sendChat(t: string): void }).sendChat('book a table for two'));
  await expect(frame.getByRole('log', { name: 'Chat history' }).locator('.msg.user')).toHaveText(['book a table for two']);
  await expect
    .poll(async () => (await events(page)).filter((e) => e.event === 'assistantText').map((e) => e.data?.text))
    .toContain('book a table for two');
  await screenshot(page, 'settings-stt-host-sent');
});

test("a customer opens an avatar's past conversations, reads a transcript and downloads it as text and JSON", async ({ page, request }) => {
  const customer = await createCustomer(request, 'transcripts');
  const avatar = await avatarOf(request, customer, 'Tara Transcript', { wakeUpMessage: 'Welcome to the Parla hotel!' });
  await page.goto(`/avatar/${avatar.id}?token=${avatar.token}`);
  await page.getByRole('button', { name: "LET'S CHAT" }).click();
  await expect(page.getByRole('log', { name: 'Chat history' })).toContainText('Welcome to the Parla hotel!', { timeout: 30_000 });
  await say(page, 'Is breakfast included?', 'Is breakfast included?');
  await page.getByRole('button', { name: 'End chat' }).click();

  await signIn(page, customer.email, customer.password);
  await page.waitForURL(/\/react\/avatars/);
  await page.getByRole('button', { name: 'Conversations of Tara Transcript' }).click();
  const dialog = page.getByRole('dialog', { name: 'Conversations' });
  await dialog.getByRole('list', { name: 'Past conversations' }).getByRole('button').first().click();
  const messages = dialog.getByRole('log', { name: 'Messages' });
  await expect(messages).toContainText('Welcome to the Parla hotel!');
  await expect(messages).toContainText('Is breakfast included?');
  await screenshot(page, 'settings-portal-transcript');
  const [text] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download text' }).click()]);
  expect(text.suggestedFilename()).toMatch(/^transcript-Tara-Transcript-\d{4}-\d\d-\d\d-[0-9a-f]{8}\.txt$/);
  const body = readFileSync(await text.path(), 'utf8');
  expect(body).toContain('Conversation with Tara Transcript');
  expect(body).toMatch(/\] Casey: Is breakfast included\?|\] Guest: Is breakfast included\?/);
  const [json] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download JSON' }).click()]);
  const parsed = JSON.parse(readFileSync(await json.path(), 'utf8')) as {
    conversation: { avatarName: string };
    messages: { role: string; text: string }[];
  };
  expect(parsed.conversation.avatarName).toBe('Tara Transcript');
  expect(parsed.messages.map((m) => m.text)).toEqual(['Welcome to the Parla hotel!', 'Is breakfast included?', 'Is breakfast included?']);
});

test('an end user downloads their transcript from the player when the avatar allows it, and sees no button when not', async ({
  page,
  request,
}) => {
  const customer = await createCustomer(request, 'download');
  await makePro(request, customer);
  const allowed = await avatarOf(request, customer, 'Dana Download', { realtime: true, customData: { enable_transcript_download: true } });
  const notAllowed = await avatarOf(request, customer, 'Nora Nodownload', {
    realtime: true,
    customData: { enable_transcript_download: false },
  });

  await page.goto(`/avatar/${allowed.id}?token=${allowed.token}`);
  await page.getByRole('button', { name: "LET'S CHAT" }).click();
  const button = page.getByRole('link', { name: 'Download transcript' });
  await expect(button).toBeVisible({ timeout: 30_000 });
  await say(page, 'Please keep a record of this.', 'Please keep a record of this.');
  await screenshot(page, 'settings-player-download');
  const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(file.suggestedFilename()).toMatch(/^transcript-Dana-Download-.*\.txt$/);
  expect(readFileSync(await file.path(), 'utf8')).toContain('Please keep a record of this.');

  await page.goto(`/avatar/${notAllowed.id}?token=${notAllowed.token}`);
  await page.getByRole('button', { name: "LET'S CHAT" }).click();
  await say(page, 'Hello?', 'Hello?');
  await expect(page.getByRole('link', { name: 'Download transcript' })).toHaveCount(0);
  await screenshot(page, 'settings-player-no-download');
});
