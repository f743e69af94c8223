// A third-party brain end to end: a customer's avatar whose brain is an ElevenLabs
// Conversational AI agent (WebSocket). The server asks ElevenLabs (the agent stand-in on
// loopback) for a signed URL; the player opens it and speaks the agent's protocol itself. The
// agent greets, the face's mouth moves while its audio plays, the (fake) microphone's audio
// reaches the agent and comes back as the user's transcript, typed text is answered, and every
// message shows in the chat. Chromium's fake microphone is set up in playwright.config.ts.
import { expect, type APIRequestContext } from '@playwright/test';
import { test } from './support/test';
import { apiLogin, recordVisemes, saveAvatar } from './support/conversation';
import { AvatarEngine } from '@parla/shared/enums';
import { AGENT_GREETING, AGENT_HEARD, type AgentConversation } from '../apps/server/test/stand-ins/runtime/elevenlabs-agent';
import { STAND_IN_KEYS } from '../apps/server/test/stand-ins/keys';
import { createCustomer, E2E_APP_KEY } from './support/accounts';
import { ELEVENLABS_AGENT_STAND_IN } from './support/stand-ins/runtime';

const SHOTS = 'test-results/screens';
const AGENT_ID = 'agent_parla_e2e_0123456789';

async function conversations(request: APIRequestContext): Promise<AgentConversation[]> {
  return (await (await request.get(`${ELEVENLABS_AGENT_STAND_IN}/_stand-in/conversations`)).json()) as AgentConversation[];
}

test('an avatar whose brain is an ElevenLabs agent talks through the provider: greeting, lip-sync, microphone, typed text', async ({
  page,
  request,
}) => {
  const customer = await createCustomer(request, 'eleven');
  const auth = `Bearer ${E2E_APP_KEY} ${await apiLogin(request, customer.email, customer.password)}`;
  const appearance = ((await (await request.get('/api/catalogue/avatars')).json()).avatars as { id: string; type: string }[]).find(
    (a) => a.type === 'image',
  )!;
  const created = await saveAvatar(request, auth, { name: 'Eleven', dhType: appearance.type, appearanceId: appearance.id });
  const avatar = await saveAvatar(request, auth, {
    id: created.id,
    updated: created.updated,
    name: 'Eleven',
    dhType: appearance.type,
    appearanceId: appearance.id,
    nlpEngine: AvatarEngine.ElevenLabsConversationAI,
    setupMode: 'None',
    customData: {
      agent_pipeline_config: {
        third_party: { agent_id: AGENT_ID, api_key: STAND_IN_KEYS.elevenlabs, is_public: false, connection_type: 'websocket' },
      },
    },
  });
  const before = (await conversations(request)).length;

  await page.goto(`/react/chatWidget/${avatar.id}?token=${avatar.token}&connect=true`);
  const frame = page.frameLocator('iframe[title="Chat with the avatar"]');
  await expect(frame.getByTestId('stage')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  const visemes = await recordVisemes(frame);
  const history = frame.getByRole('log', { name: 'Chat history' });

  // The agent greets; its audio moves the mouth (aligned characters → visemes).
  await expect(history.locator('.msg.assistant').first()).toHaveText(AGENT_GREETING, { timeout: 20_000 });
  await expect.poll(async () => (await visemes()).filter((v) => v && v !== 'sil').length, { timeout: 10_000 }).toBeGreaterThan(5);
  await expect(frame.getByTestId('avatar-face')).toHaveAttribute('data-viseme', 'sil', { timeout: 10_000 });

  // The mic starts only when the user asks (issue 18): once on, the fake microphone's audio
  // reaches the agent, which answers what it heard; the user's words show in the chat.
  const mic = frame.getByRole('button', { name: 'Microphone' });
  await expect(mic).toHaveAttribute('aria-pressed', 'false');
  await mic.click();
  await expect(mic).toHaveAttribute('aria-pressed', 'true');
  await expect(history.locator('.msg.user', { hasText: AGENT_HEARD })).toBeVisible({ timeout: 20_000 });
  await expect(history.locator('.msg.assistant', { hasText: 'I heard you say' })).toBeVisible();

  // Typed text goes to the agent as user_message and is answered while the mouth moves.
  const mark = (await visemes()).length;
  await frame.getByLabel('Message').fill('What are your opening hours?');
  await frame.getByLabel('Message').press('Enter');
  await expect(history.locator('.msg.assistant', { hasText: 'You said: What are your opening hours?' })).toBeVisible();
  await expect
    .poll(async () => (await visemes()).slice(mark).filter((v) => v && v !== 'sil').length, { timeout: 10_000 })
    .toBeGreaterThan(5);
  await page.screenshot({ path: `${SHOTS}/third-party-elevenlabs-chat.png` });

  // What the agent received: the initiation, a pong for its ping, the microphone, the text.
  const conversation = (await conversations(request)).slice(before).find((c) => c.agentId === AGENT_ID)!;
  expect(conversation.initiation).toMatchObject({ type: 'conversation_initiation_client_data' });
  expect(conversation.pongs).toEqual([1]);
  expect(conversation.audioBytes).toBeGreaterThan(6400);
  expect(conversation.userMessages).toEqual(['What are your opening hours?']);

  // Ending the chat closes the agent's conversation too.
  await frame.getByRole('button', { name: 'End chat' }).click();
  await expect.poll(async () => (await conversations(request)).find((c) => c.id === conversation.id)?.closed).toBe(true);
});
