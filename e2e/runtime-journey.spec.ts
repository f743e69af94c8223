// The conversation runtime end to end: a customer's LLM avatar with a knowledge collection, run
// against the local OpenAI-compatible stand-in, answers in its chat widget a question only the
// collection can answer (the stand-in received the retrieved chunk in its prompt), streamed,
// while the face moves; the avatar card shows 1 online user; after the chat ends, the billing
// report shows the call. An echo avatar works with no configuration.
// Setup (collection, avatars, brain) goes through the API, as the editor's screens would save it.
import { expect, type FrameLocator, type Page } from '@playwright/test';
import { test } from './support/test';
import { apiLogin, recordVisemes, saveAvatar } from './support/conversation';
import { createCustomer, E2E_APP_KEY, signIn } from './support/accounts';
import { OPENAI_STAND_IN, OPENAI_STAND_IN_KEY } from './support/stand-ins/runtime';

const SHOTS = 'test-results/screens';

function widget(page: Page): FrameLocator {
  return page.frameLocator('iframe[title="Chat with the avatar"]');
}

test('an LLM avatar with a knowledge collection answers in its chat widget; the card counts the user; billing shows the call', async ({
  page,
  browser,
  request,
}) => {
  const customer = await createCustomer(request, 'runtime');
  const session = await apiLogin(request, customer.email, customer.password);
  const auth = `Bearer ${E2E_APP_KEY} ${session}`;

  // A collection whose text holds the answer.
  const jwt = (await (await request.get('/api/token/jwt', { headers: { authorization: auth } })).json()).jwtToken as string;
  const kb = { authorization: `Bearer ${jwt}` };
  const collection = await (await request.post('/kb/v1/collections', { headers: kb, data: { name: 'Hotel guide' } })).json();
  await request.post(`/kb/v1/collections/${collection.id}/items`, {
    headers: kb,
    data: {
      name: 'Breakfast hours',
      knowledge_type: { text: { content: 'Breakfast at Hotel Parla is served from 6:30 to 10:30 in the Garden Room.' } },
    },
  });
  await expect
    .poll(
      async () =>
        ((await (await request.get(`/kb/v1/collections/${collection.id}/items`, { headers: kb })).json()) as { status: string }[])[0]
          ?.status,
      { timeout: 30_000 },
    )
    .toBe('ready');

  // The avatar: created (echo, as every new avatar), then its brain saved as an LLM with the collection.
  const appearance = ((await (await request.get('/api/catalogue/avatars')).json()).avatars as { id: string; type: string }[]).find(
    (a) => a.type === 'image',
  )!;
  const created = await saveAvatar(request, auth, { name: 'Concierge', dhType: appearance.type, appearanceId: appearance.id });
  const concierge = await saveAvatar(request, auth, {
    id: created.id,
    updated: created.updated,
    name: 'Concierge',
    dhType: appearance.type,
    appearanceId: appearance.id,
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
          instructions: 'You are the hotel concierge.',
          custom_text: 'Be brief.',
        },
      },
    },
  });

  await signIn(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/react\/avatars$/);
  const card = page.getByRole('article', { name: 'Avatar Concierge' });
  await expect(card.getByRole('button', { name: '0 online users of Concierge' })).toBeVisible();

  // The end user opens the chat widget and asks.
  const visitor = await browser.newPage();
  await visitor.goto(`/react/chatWidget/${concierge.id}?token=${concierge.token}&connect=true`);
  const frame = widget(visitor);
  await expect(frame.getByTestId('stage')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  const visemes = await recordVisemes(frame);
  await frame.getByLabel('Message').fill('When is breakfast served?');
  await frame.getByLabel('Message').press('Enter');
  const history = frame.getByRole('log', { name: 'Chat history' });
  await expect(history.locator('.msg.assistant').last()).toHaveText(
    'According to Breakfast hours: Breakfast at Hotel Parla is served from 6:30 to 10:30 in the Garden Room.',
  );
  await expect.poll(async () => (await visemes()).filter((v) => v && v !== 'sil').length).toBeGreaterThan(5);
  await visitor.screenshot({ path: `${SHOTS}/runtime-chat-widget.png` });

  // The stand-in got the retrieved chunk, with its source, in the prompt.
  const chats = (await (await request.get(`${OPENAI_STAND_IN}/_stand-in/chats`)).json()) as {
    messages: { role: string; content: string }[];
  }[];
  const system = chats.at(-1)!.messages[0]!;
  expect(system.role).toBe('system');
  expect(system.content).toContain('(source: Breakfast hours)');
  expect(system.content).toContain('served from 6:30 to 10:30 in the Garden Room');

  // The card counts the visitor.
  await card.getByRole('button', { name: 'Refresh online users' }).click();
  await expect(card.getByRole('button', { name: '1 online users of Concierge' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/runtime-avatar-card-online.png` });

  // The customer's own online users list it too, with the response times of the avatar.
  await page.goto('/react/myonlineusers');
  await expect(page.getByRole('table', { name: 'Online users' }).getByRole('row', { name: /Guest/ })).toHaveCount(1);
  await expect(page.getByRole('table', { name: 'Response times' }).getByRole('row', { name: /Concierge/ })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/runtime-my-online-users.png` });

  // The visitor ends the chat; the billing report counts the call.
  await frame.getByRole('button', { name: 'End chat' }).click();
  await visitor.close();
  await page.getByRole('button', { name: 'Refresh online users' }).click();
  await expect(page.getByRole('table', { name: 'Online users' }).getByText('No one is online right now.')).toBeVisible();
  await page.goto('/react/account');
  const row = page.getByRole('row', { name: /Concierge/ });
  await expect(row.getByRole('cell').nth(4)).toHaveText('1');
  await page.screenshot({ path: `${SHOTS}/runtime-billing.png` });
});

test('an echo avatar works in its chat widget with no configuration', async ({ page, request }) => {
  // Its waits add up past the default minute under CI's load (59.9 s in a green run): the widget's
  // start, the reply, then the reply's lips.
  test.setTimeout(120_000);
  const customer = await createCustomer(request, 'runtime-echo');
  const session = await apiLogin(request, customer.email, customer.password);
  const appearance = ((await (await request.get('/api/catalogue/avatars')).json()).avatars as { id: string; type: string }[]).find(
    (a) => a.type === '2d',
  )!;
  const echo = await saveAvatar(request, `Bearer ${E2E_APP_KEY} ${session}`, {
    name: 'Echo Desk',
    dhType: appearance.type,
    appearanceId: appearance.id,
  });
  await page.goto(`/react/chatWidget/${echo.id}?token=${echo.token}&connect=true`);
  const frame = widget(page);
  await expect(frame.getByTestId('stage')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  const visemes = await recordVisemes(frame);
  // A reply of several seconds: on a machine under load the widget may draw a few frames a second,
  // and the lips are read from what it draws.
  const said = 'Hello there, nice to meet you. I would like a table for two tonight, at eight, by the window please.';
  await frame.getByLabel('Message').fill(said);
  await frame.getByLabel('Message').press('Enter');
  await expect(frame.getByRole('log', { name: 'Chat history' }).locator('.msg.assistant').last()).toHaveText(said);
  // The reply's own lips (the greeting's are not counted): they follow the embedded voice's audio,
  // which starts on the audio clock once the visitor's keystroke let the audio run (the greeting
  // had moved the lips on the wall clock until then; the reply once played half a minute late).
  await expect.poll(async () => (await visemes(2)).filter((v) => v && v !== 'sil').length, { timeout: 30_000 }).toBeGreaterThan(3);
  await page.screenshot({ path: `${SHOTS}/runtime-echo-widget.png` });
});
