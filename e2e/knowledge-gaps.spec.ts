// Issue 38 items 3 and 4 in the browser: visitors ask an LLM avatar with a knowledge collection
// (the OpenAI stand-in answers from the passage it was given, else "I do not know that.")
// something its knowledge does not cover, in two wordings; the customer finds it grouped under
// the avatar's knowledge gaps, writes the answer in one click, and the next visitor's identical
// and reworded questions are answered from it. Then the insight of those real conversations:
// figures, chart, top questions, search, and the CSV and JSON exports opened.
import { readFileSync } from 'node:fs';
import { expect, type APIRequestContext, type FrameLocator, type Page } from '@playwright/test';
import { test } from './support/test';
import { apiLogin, saveAvatar } from './support/conversation';
import { createCustomer, E2E_APP_KEY, signIn } from './support/accounts';
import { screenshot } from './support/screenshots';
import { OPENAI_STAND_IN, OPENAI_STAND_IN_KEY } from './support/stand-ins/runtime';

const NOT_KNOWN = 'I do not know that.';
const ANSWER = 'Yes: we deliver parcels to Canada within 5 working days.';

function widget(page: Page): FrameLocator {
  return page.frameLocator('iframe[title="Chat with the avatar"]');
}

/** One visitor: opens the chat widget, asks each question, checks each answer, ends the chat. */
async function visit(page: Page, avatar: { id: string; token: string }, turns: [string, string][], shot?: string) {
  await page.goto(`/react/chatWidget/${avatar.id}?token=${avatar.token}&connect=true`);
  const frame = widget(page);
  await expect(frame.getByTestId('stage')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  const history = frame.getByRole('log', { name: 'Chat history' });
  // The greeting (the answer to the hidden wake-up message) comes first.
  await expect(history.locator('.msg.assistant')).toHaveCount(1, { timeout: 30_000 });
  for (const [i, [question, answer]] of turns.entries()) {
    await frame.getByLabel('Message').fill(question);
    await frame.getByLabel('Message').press('Enter');
    await expect(history.locator('.msg.assistant')).toHaveCount(i + 2, { timeout: 30_000 });
    await expect(history.locator('.msg.assistant').last()).toHaveText(answer, { timeout: 30_000 });
  }
  if (shot) await screenshot(page, shot);
  await frame.getByRole('button', { name: 'End chat' }).click();
}

async function itemsReady(request: APIRequestContext, kb: Record<string, string>, collectionId: string, count: number) {
  await expect
    .poll(
      async () =>
        ((await (await request.get(`/kb/v1/collections/${collectionId}/items`, { headers: kb })).json()) as { status: string }[]).filter(
          (i) => i.status === 'ready',
        ).length,
      { timeout: 30_000 },
    )
    .toBe(count);
}

test('a question the knowledge does not cover shows under knowledge gaps; the answer written in one click answers the next visitor; the insight shows the conversations and exports them', async ({
  page,
  browser,
  request,
}) => {
  const customer = await createCustomer(request, 'gaps');
  const auth = `Bearer ${E2E_APP_KEY} ${await apiLogin(request, customer.email, customer.password)}`;
  const jwt = (await (await request.get('/api/token/jwt', { headers: { authorization: auth } })).json()).jwtToken as string;
  const kb = { authorization: `Bearer ${jwt}` };
  const collection = await (await request.post('/kb/v1/collections', { headers: kb, data: { name: 'Shop guide' } })).json();
  await request.post(`/kb/v1/collections/${collection.id}/items`, {
    headers: kb,
    data: { name: 'Opening hours', knowledge_type: { text: { content: 'The shop is open from 9 to 18, Monday to Saturday.' } } },
  });
  await itemsReady(request, kb, collection.id, 1);
  const appearance = ((await (await request.get('/api/catalogue/avatars')).json()).avatars as { id: string; type: string }[]).find(
    (a) => a.type === 'image',
  )!;
  const base = { name: 'Shop Desk', dhType: appearance.type, appearanceId: appearance.id };
  const created = await saveAvatar(request, auth, base);
  const avatar = await saveAvatar(request, auth, {
    ...base,
    id: created.id,
    updated: created.updated,
    nlpEngine: 10,
    setupMode: 'Composite',
    customData: {
      collection_ids: [collection.id],
      agent_pipeline_config: {
        llm: {
          provider: 'openai',
          base_url: `${OPENAI_STAND_IN}/v1`,
          api_key: OPENAI_STAND_IN_KEY,
          model: 'stand-in-model',
          instructions: 'You are the shop.',
          custom_text: 'Be brief.',
        },
      },
    },
  });

  // Two visitors ask what the knowledge does not cover, in two wordings.
  const visitor = await browser.newPage();
  await visit(visitor, avatar, [
    ['Do you ship to Canada?', NOT_KNOWN],
    ['When is the shop open?', 'According to Opening hours: The shop is open from 9 to 18, Monday to Saturday.'],
  ]);
  await visit(visitor, avatar, [['Can you deliver my parcel to Canada?', NOT_KNOWN]], 'gaps-visitor-not-known');

  // The customer sees them as one gap, asked twice.
  await signIn(page, customer.email, customer.password);
  await page.waitForURL(/\/react\/avatars/);
  await page.getByRole('button', { name: 'Insight of Shop Desk' }).click();
  const dialog = page.getByRole('dialog', { name: 'Insight: Shop Desk' });
  await dialog.getByRole('tab', { name: 'Knowledge gaps' }).click();
  const gap = dialog.getByRole('listitem', { name: 'Do you ship to Canada?' });
  await expect(async () => {
    await dialog.getByRole('button', { name: 'Refresh' }).click();
    await expect(gap).toContainText('Asked 2 times', { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(gap.getByRole('list', { name: 'Questions asked' })).toContainText('“Can you deliver my parcel to Canada?”');
  await expect(gap.getByRole('list', { name: 'Questions asked' })).toContainText('“Do you ship to Canada?”');
  await expect(dialog.getByRole('button', { name: 'Write the answer' })).toHaveCount(1);
  await screenshot(page, 'gaps-grouped');

  // One click opens the answer, prefilled with the question.
  await gap.getByRole('button', { name: 'Write the answer' }).click();
  const answer = page.getByRole('dialog', { name: 'Write the answer' });
  await expect(answer.getByLabel('Question')).toHaveValue('Do you ship to Canada?');
  await expect(answer.getByLabel('Collection')).toContainText('Shop guide');
  await answer.getByLabel('Answer').fill(ANSWER);
  await screenshot(page, 'gaps-write-answer');
  await answer.getByRole('button', { name: 'Save answer' }).click();
  await expect(answer).toBeHidden();
  await expect(dialog.getByText('No knowledge gaps: every question was answered.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Resolved' }).click();
  await expect(dialog.getByRole('listitem', { name: 'Do you ship to Canada?' })).toContainText('answer written');
  await itemsReady(request, kb, collection.id, 2);

  // The next visitor's identical and reworded questions are answered from it.
  const fromAnswer = `According to Do you ship to Canada?: ${ANSWER}`;
  await visit(visitor, avatar, [['Do you ship to Canada?', fromAnswer]]);
  await visit(visitor, avatar, [['Could you deliver to Canada?', fromAnswer]], 'gaps-next-visitor-answered');
  await visitor.close();

  // The insight of these conversations, in the browser.
  await dialog.getByRole('tab', { name: 'Conversations' }).click();
  await expect(async () => {
    await dialog.getByLabel('To', { exact: true }).fill(new Date().toISOString().slice(0, 10));
    await expect(dialog.getByRole('group', { name: 'Turns', exact: true })).toContainText('5', { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(dialog.getByRole('group', { name: 'Conversations', exact: true })).toContainText('4');
  await expect(dialog.getByRole('group', { name: 'Answered from knowledge', exact: true })).toContainText('60%');
  await expect(dialog.getByRole('group', { name: 'Unanswered', exact: true })).toContainText('40%');
  await expect(dialog.getByRole('img', { name: /Conversations per day: 4 in 30 days/ })).toBeVisible();
  await expect(dialog.getByRole('list', { name: 'Top questions' })).toContainText('Do you ship to Canada?');
  await screenshot(page, 'insight-figures');
  await dialog.getByLabel('Search transcripts').fill('my parcel');
  await expect(dialog.getByRole('list', { name: 'Conversations in range' }).getByRole('button')).toHaveCount(1);
  await dialog.getByRole('list', { name: 'Conversations in range' }).getByRole('button').first().click();
  await expect(dialog.getByRole('log', { name: 'Messages' })).toContainText('Can you deliver my parcel to Canada?');
  await screenshot(page, 'insight-conversations');

  const [csv] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Export CSV' }).click()]);
  expect(csv.suggestedFilename()).toMatch(/^conversations-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.csv$/);
  const rows = readFileSync(await csv.path(), 'utf8')
    .trim()
    .split('\r\n');
  expect(rows[0]).toBe('conversation_id,started_at,user_name,seq,role,at,text,interrupted');
  expect(rows.some((r) => r.includes('Can you deliver my parcel to Canada?'))).toBe(true);
  await dialog.getByLabel('Search transcripts').fill('');
  const [json] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Export JSON' }).click()]);
  const parsed = JSON.parse(readFileSync(await json.path(), 'utf8')) as { conversations: { messages: { role: string; text: string }[] }[] };
  expect(parsed.conversations).toHaveLength(4);
  expect(parsed.conversations.flatMap((c) => c.messages.filter((m) => m.role === 'user').map((m) => m.text))).toContain(
    'Could you deliver to Canada?',
  );
});
