// Issue 34 item 3: a model stream that stalls halfway kept the visitor waiting about 85 s, then
// said "the avatar's voice is not available" (the voice was fine); a cut stream said the same; a
// garbled one gave an empty answer and no notice; a model that never answered was cut after 35 s.
// Each fault here comes from the OpenAI-compatible stand-in, through a real conversation: the
// visitor is told the answer failed, the partial answer is marked cut, the next turn works.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ServerMessage } from '@parla/shared/schemas/conversation';
import { createTestServer, type TestServer } from '../../../test/harness';
import { createCustomer } from '../../../test/accounts';
import { closeAll, connect, listen, testAvatars, type TestConversation } from '../../../test/conversation-client';
import { startOpenAiStandIn, STAND_IN_KEY, type ChatReply, type OpenAiStandIn } from '../../../test/stand-ins/runtime/openai';
import { ANSWER_CUT_NOTICE, ENGINE_FAILED_NOTICE, SPEECH_FAILED_NOTICE } from '../conversation/notices';

let server: TestServer;
let host: string;
let openai: OpenAiStandIn;
const timings: Record<string, number> = {};

beforeAll(async () => {
  openai = await startOpenAiStandIn();
  // Short silences for the test; the defaults are 20 s to the first event and 8 s between two.
  server = await createTestServer({ OUTBOUND_ALLOW: openai.allow, LLM_FIRST_TOKEN_MS: '800', LLM_STALL_MS: '500' });
  host = await listen(server);
  const owner = await createCustomer(server, 'stream');
  testAvatars(server, {
    llm: {
      ownerId: owner.id,
      engine: {
        kind: 'llm',
        baseUrl: `${openai.url}/v1`,
        apiKey: STAND_IN_KEY,
        model: 'stand-in-model',
        instructions: 'Answer briefly.',
        memory: '',
        sendHistory: true,
        tools: [],
      },
    },
  });
});
afterEach(async () => {
  await closeAll();
  openai.reply = (messages) => ({ content: ['You asked: ', String([...messages].reverse().find((m) => m.role === 'user')?.content)] });
});
afterAll(async () => {
  console.log('time from the question to the notice (ms):', timings);
  await server.close();
  await openai.close();
});

/** Asks once with the stand-in broken as `reply` says; the next turn gets a normal answer. */
async function askBroken(
  reply: ChatReply,
  name: string,
): Promise<{ c: TestConversation; notice: string; done: Extract<ServerMessage, { type: 'assistant_done' }> }> {
  const c = await connect(host, { avatarId: 'llm' });
  await c.next('ready');
  openai.reply = () => reply;
  const t0 = performance.now();
  c.send({ type: 'user_text', text: 'Tell me about the hotel' });
  const notice = await c.next('notice');
  timings[name] = Math.round(performance.now() - t0);
  const done = await c.next('assistant_done');
  openai.reply = () => ({ content: ['The pool ', 'opens at nine.'] });
  expect((await c.ask('And the pool?')).text).toBe('The pool opens at nine.');
  return { c, notice: notice.message, done };
}

describe('a broken model stream', () => {
  it('that stalls halfway: the visitor is told the answer was cut, and the half answer is marked cut', async () => {
    const { notice, done } = await askBroken({ content: ['The hotel has ', 'forty rooms.'], fault: 'stall' }, 'stall');
    expect(notice).toBe(ANSWER_CUT_NOTICE);
    expect(notice).not.toBe(SPEECH_FAILED_NOTICE);
    expect(done).toMatchObject({ text: 'The hotel has ', interrupted: true });
  });

  it('whose connection is cut halfway: the same', async () => {
    const { notice, done } = await askBroken({ content: ['The hotel has ', 'forty rooms.'], fault: 'cut' }, 'cut');
    expect(notice).toBe(ANSWER_CUT_NOTICE);
    expect(done).toMatchObject({ text: 'The hotel has ', interrupted: true });
  });

  it('that is garbled: the visitor is told the avatar could not answer, not left with an empty answer', async () => {
    const { notice, done } = await askBroken({ content: ['The hotel has ', 'forty rooms.'], fault: 'garbled' }, 'garbled');
    expect(notice).toBe(ENGINE_FAILED_NOTICE);
    expect(done.text).toBe('');
  });

  it('that never answers: the visitor is told the avatar could not answer once the first event is overdue', async () => {
    const { notice, done } = await askBroken({ content: ['never sent'], fault: 'silent' }, 'silent');
    expect(notice).toBe(ENGINE_FAILED_NOTICE);
    expect(done.text).toBe('');
    expect(server.logs.some((l) => l.includes('the model sent nothing for 0.8 s'))).toBe(true);
  });
});
