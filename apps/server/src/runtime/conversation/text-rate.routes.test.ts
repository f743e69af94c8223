// Issue 34 item 7: under 200 echo conversations at one turn a second, 5 were closed with "Too
// many messages". The text limit was a window of 30 a minute, below that pace; it is now a
// token bucket of one a second with a burst (decision 614). The server's clock is driven by the
// test (`advance`), so a minute of conversation takes milliseconds.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES, CONVERSATION_TEXT_BURST } from '@parla/shared/schemas/conversation';
import { createTestServer, type TestServer } from '../../../test/harness';
import { createCustomer } from '../../../test/accounts';
import { closeAll, connect, listen, testAvatars } from '../../../test/conversation-client';
import { RATE_LIMITED_MESSAGE } from './client-channel';

let server: TestServer;
let host: string;

beforeAll(async () => {
  server = await createTestServer();
  host = await listen(server);
  const owner = await createCustomer(server, 'pace');
  testAvatars(server, {
    echo: { ownerId: owner.id, limits: { dailyLimitPerSession: -1, dailyLimitPerIP: -1, demo: -1, idleTimeout: 3600 } },
  });
});
afterEach(closeAll);
afterAll(async () => {
  await server.close();
});

describe('the user message rate of a conversation', () => {
  it('keeps a client that sends one message a second for two minutes, with pauses of the server between', async () => {
    const c = await connect(host, { avatarId: 'echo' });
    await c.next('ready');
    for (let second = 1; second <= 120; second++) {
      // The frame limit (50 a second) runs on real time: the test's own pace stays below it.
      await new Promise((r) => setTimeout(r, 25));
      if (second % 40 === 0) {
        // The server stalled for 8 s: the 8 messages the client sent meanwhile arrive together.
        server.advance(8000);
        for (let i = 0; i < 8; i++) c.send({ type: 'user_text', text: `queued ${second} ${i}` });
        expect((await c.next('assistant_done', (m) => m.text === `queued ${second} 7`)).text).toBe(`queued ${second} 7`);
        continue;
      }
      server.advance(1000);
      expect((await c.ask(`turn ${second}`)).text).toBe(`turn ${second}`);
    }
    expect(c.messages.some((m) => m.type === 'error')).toBe(false);
  });

  it('closes a client that sends faster than one message a second beyond the burst', async () => {
    const c = await connect(host, { avatarId: 'echo' });
    await c.next('ready');
    for (let i = 0; i < CONVERSATION_TEXT_BURST + 1; i++) c.send({ type: 'user_text', text: `flood ${i}` });
    expect((await c.next('error')).message).toBe(RATE_LIMITED_MESSAGE);
    expect((await c.closed).code).toBe(CLOSE_CODES.rateLimited);
  });

  it('takes the burst again once the client has been quiet for as long', async () => {
    const c = await connect(host, { avatarId: 'echo' });
    await c.next('ready');
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < CONVERSATION_TEXT_BURST; i++) c.send({ type: 'user_text', text: `round ${round} ${i}` });
      const last = `round ${round} ${CONVERSATION_TEXT_BURST - 1}`;
      await c.next('assistant_done', (m) => m.text === last);
      server.advance(CONVERSATION_TEXT_BURST * 1000);
    }
    expect(c.messages.some((m) => m.type === 'error')).toBe(false);
  });
});
