// Transcripts (issue 13 item 5): every message of a conversation with a saved avatar is stored,
// owner-scoped, deleted with the avatar; its owner lists the avatar's conversations and reads or
// downloads a transcript (JSON, text); the end user downloads their own only when Enable
// Transcript Download allows it (realtime avatars on PRO/ENTERPRISE).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AvatarEngine } from '@parla/shared/enums';
import type { Avatar } from '@parla/shared/schemas/avatar';
import { TRANSCRIPT_DOWNLOAD_OFF_MESSAGE } from '@parla/shared/schemas/transcripts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { closeAll, connect, listen } from '../../../test/conversation-client';
import { startOpenAiStandIn, STAND_IN_KEY, type OpenAiStandIn } from '../../../test/stand-ins/runtime/openai';
import { save } from '../../../test/avatar-requests';

let server: TestServer;
let openai: OpenAiStandIn;
let host: string;
let alice: TestAccount;
let mallory: TestAccount;
let appearance: { id: string; type: string };

async function avatar(owner: TestAccount, extra: Record<string, unknown> = {}): Promise<Avatar & { token: string }> {
  const base = { name: 'Nova Desk', dhType: appearance.type, appearanceId: appearance.id };
  const res = await save(server, owner.token, base);
  expect(res.statusCode, res.body).toBe(200);
  const created = res.json().agent as Avatar & { token: string; updated: string };
  if (!Object.keys(extra).length) return created;
  const upd = await save(server, owner.token, { ...base, id: created.id, updated: created.updated, ...extra });
  expect(upd.statusCode, upd.body).toBe(200);
  return upd.json().agent;
}

/** A conversation: the greeting, two messages, then the end. Returns its id. */
async function talk(a: { id: string; token: string }): Promise<string> {
  const c = await connect(
    host,
    { avatarId: a.id, token: a.token },
    { type: 'hello', deviceId: 'dev-t', userId: 'ada-42', userName: 'Ada' },
  );
  const { sessionId } = await c.next('ready');
  await c.next('assistant_done');
  await c.ask('I would like a room');
  await c.ask('With a view, please');
  c.send({ type: 'bye' });
  await c.closed;
  return sessionId;
}

beforeAll(async () => {
  openai = await startOpenAiStandIn();
  server = await createTestServer({ OUTBOUND_ALLOW: openai.allow, PROVIDER_URL_OVERRIDES: `api.openai.com=${openai.url}` });
  host = await listen(server);
  alice = await createCustomer(server, 'transcripts');
  mallory = await createCustomer(server, 'transcripts-other');
  await server.ctx.db.updateTable('users').set({ subscription_type: 4 }).where('id', '=', alice.id).execute();
  const cat = await server.inject({ method: 'GET', url: '/api/catalogue/avatars' });
  appearance = (cat.json().avatars as { id: string; type: string }[]).find((a) => a.type === '2d')!;
});

afterEach(async () => {
  await closeAll();
});

afterAll(async () => {
  await server.close();
  await openai.close();
});

describe('transcripts', () => {
  it('stores every message (who, text, time, interrupted) and its owner reads the transcript as JSON and downloads it as text and JSON', async () => {
    const a = await avatar(alice, { wakeUpMessage: 'Greet the guest.' });
    const id = await talk(a);
    await expect
      .poll(
        async () =>
          (await server.inject({ method: 'GET', url: `/api/conversations/${id}/transcript`, token: alice.token })).json().messages?.length,
      )
      .toBe(5);
    const res = await server.inject({ method: 'GET', url: `/api/conversations/${id}/transcript`, token: alice.token });
    expect(res.statusCode).toBe(200);
    const t = res.json();
    expect(t.conversation).toMatchObject({
      id,
      avatarId: a.id,
      avatarName: 'Nova Desk',
      userId: 'ada-42',
      userName: 'Ada',
      endReason: 'client',
      messages: 5,
    });
    // The wake-up turn is hidden: the greeting (the brain's answer) is the first message.
    expect(t.messages.map((m: { role: string; text: string }) => [m.role, m.text])).toEqual([
      ['assistant', 'Greet the guest.'],
      ['user', 'I would like a room'],
      ['assistant', 'I would like a room'],
      ['user', 'With a view, please'],
      ['assistant', 'With a view, please'],
    ]);
    expect(t.messages.every((m: { at: string; interrupted: boolean }) => !Number.isNaN(Date.parse(m.at)) && m.interrupted === false)).toBe(
      true,
    );

    const text = await server.inject({
      method: 'GET',
      url: `/api/conversations/${id}/transcript?format=text&download=1`,
      token: alice.token,
    });
    expect(text.headers['content-type']).toMatch(/^text\/plain/);
    expect(text.headers['content-disposition']).toMatch(/^attachment; filename="transcript-Nova-Desk-\d{4}-\d\d-\d\d-[0-9a-f]{8}\.txt"$/);
    expect(text.body).toContain('Conversation with Nova Desk');
    expect(text.body).toMatch(/\] Ada: I would like a room\n/);
    const json = await server.inject({
      method: 'GET',
      url: `/api/conversations/${id}/transcript?format=json&download=1`,
      token: alice.token,
    });
    expect(json.headers['content-disposition']).toMatch(/\.json"$/);
    expect(json.json().messages).toHaveLength(5);
  });

  it('marks a reply cut by the user as interrupted, with the words said before the cut', async () => {
    const a = await avatar(alice, {
      nlpEngine: AvatarEngine.LargeLanguageModel,
      setupMode: 'Composite',
      customData: {
        agent_pipeline_config: {
          llm: {
            provider: 'openai',
            base_url: `${openai.url}/v1`,
            api_key: STAND_IN_KEY,
            model: 'stand-in-model',
            instructions: 'You tell stories.',
            custom_text: 'Guest: Ada.',
            max_tokens: 120,
          },
        },
      },
    });
    const c = await connect(host, { avatarId: a.id, token: a.token });
    const { sessionId } = await c.next('ready');
    await c.next('assistant_done');
    // A slow model: the first words stream, the rest waits until the test lets it go.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    openai.reply = () => ({ content: ['Once upon ', 'a time there was a hotel.'], holdAfterFirst: held });
    c.send({ type: 'user_text', text: 'Tell me a story' });
    await c.next('assistant_delta', (m) => m.text === 'Once upon ');
    c.send({ type: 'interrupt' });
    expect(await c.next('assistant_done')).toMatchObject({ text: 'Once upon ', interrupted: true });
    release();
    c.send({ type: 'bye' });
    await c.closed;
    const t = await server.inject({ method: 'GET', url: `/api/conversations/${sessionId}/transcript`, token: alice.token });
    const messages = t.json().messages as { role: string; text: string; interrupted: boolean }[];
    expect(messages.slice(-2)).toEqual([
      expect.objectContaining({ role: 'user', text: 'Tell me a story', interrupted: false }),
      expect.objectContaining({ role: 'assistant', text: 'Once upon ', interrupted: true }),
    ]);
    expect(messages.filter((m) => m.interrupted)).toHaveLength(1);
  });

  it("lists an avatar's past conversations, newest first, with their message counts", async () => {
    const a = await avatar(alice);
    const first = await talk(a);
    server.advance(60_000);
    const second = await talk(a);
    await expect
      .poll(async () =>
        (await server.inject({ method: 'GET', url: `/api/avatars/${a.id}/conversations`, token: alice.token }))
          .json()
          .conversations?.map((c: { id: string; messages: number }) => [c.id, c.messages]),
      )
      .toEqual([
        [second, 5],
        [first, 5],
      ]);
    const page = await server.inject({ method: 'GET', url: `/api/avatars/${a.id}/conversations?page=2&pageSize=1`, token: alice.token });
    expect(page.json()).toMatchObject({ total: 2, page: 2, pageSize: 1, conversations: [{ id: first }] });
  });

  it('does not show the conversations or a transcript of another account: 404', async () => {
    const a = await avatar(alice);
    const id = await talk(a);
    const list = await server.inject({ method: 'GET', url: `/api/avatars/${a.id}/conversations`, token: mallory.token });
    expect(list.statusCode).toBe(404);
    const read = await server.inject({ method: 'GET', url: `/api/conversations/${id}/transcript`, token: mallory.token });
    expect(read.statusCode).toBe(404);
    expect(read.json()).toMatchObject({ status: 'ERROR', errors: [expect.stringContaining('not found')] });
    const anonymous = await server.inject({ method: 'GET', url: `/api/conversations/${id}/transcript`, token: null });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers bad paging and formats with clear messages, never a 500', async () => {
    const a = await avatar(alice);
    for (const [q, message] of [
      ['page=0', 'page must be 1 or more'],
      ['pageSize=1000', 'pageSize must be at most 100'],
      ['page=abc', 'page must be a number'],
    ] as const) {
      const res = await server.inject({ method: 'GET', url: `/api/avatars/${a.id}/conversations?${q}`, token: alice.token });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().errors.join(' ')).toContain(message);
    }
    const format = await server.inject({ method: 'GET', url: `/api/conversations/nope/transcript?format=pdf`, token: alice.token });
    expect(format.statusCode).toBe(400);
    expect(format.json().errors.join(' ')).toContain("format must be 'json' or 'text'");
    const long = await server.inject({ method: 'GET', url: `/api/conversations/${'x'.repeat(300)}/transcript`, token: alice.token });
    expect([400, 404, 414]).toContain(long.statusCode);
  });

  it('deletes the transcript with the avatar (the billing record stays)', async () => {
    const a = await avatar(alice);
    const id = await talk(a);
    const count = async () =>
      Number(
        (
          await server.ctx.db
            .selectFrom('conversation_messages')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('conversation_id', '=', id)
            .executeTakeFirst()
        )?.n ?? 0,
      );
    // Five messages and the hidden wake-up turn.
    await expect.poll(count).toBe(6);
    const del = await server.inject({
      method: 'POST',
      url: '/api/avatar/del',
      token: alice.token,
      payload: { agentId: a.id, mode: 'delete' },
    });
    expect(del.statusCode).toBe(200);
    expect(await count()).toBe(0);
    expect(await server.ctx.db.selectFrom('conversations').select('id').where('id', '=', id).executeTakeFirst()).toBeDefined();
  });
});

describe("the end user's transcript download (Enable Transcript Download)", () => {
  async function realtimeAvatar(download: boolean, plan: number) {
    await server.ctx.db.updateTable('users').set({ subscription_type: 4 }).where('id', '=', alice.id).execute();
    const a = await avatar(alice);
    await server.ctx.db.updateTable('users').set({ subscription_type: plan }).where('id', '=', alice.id).execute();
    const row = await server.ctx.db.selectFrom('avatars').select('custom_data').where('id', '=', a.id).executeTakeFirstOrThrow();
    const custom = { ...(row.custom_data as Record<string, unknown>), enable_transcript_download: download };
    await server.ctx.db
      .updateTable('avatars')
      .set({ realtime: true, custom_data: JSON.stringify(custom) })
      .where('id', '=', a.id)
      .execute();
    return a;
  }

  it('a realtime avatar on PRO with the option gives the player a download URL that serves the text file; switched off, the server refuses it', async () => {
    const a = await realtimeAvatar(true, 2);
    const c = await connect(host, { avatarId: a.id, token: a.token });
    const ready = await c.next('ready');
    expect(ready.transcriptUrl).toMatch(
      new RegExp(`^http://parla\\.test/api/conversation/transcript/${ready.sessionId}\\?key=[\\w-]{43}$`),
    );
    await c.next('assistant_done');
    await c.ask('Hello there');
    const path = ready.transcriptUrl!.replace('http://parla.test', '');
    // At once, not polled: the words just said are in the file although the writer batches them
    // (decision 615); the download writes what this process still buffers first.
    const file = await server.inject({ method: 'GET', url: path, token: null, appKey: null });
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain(': Hello there');
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="transcript-.*\.txt"$/);
    const json = await server.inject({ method: 'GET', url: `${path}&format=json`, token: null, appKey: null });
    expect(json.json().messages.length).toBeGreaterThan(0);

    const wrongKey = await server.inject({
      method: 'GET',
      url: path.replace(/key=.*/, `key=${'A'.repeat(43)}`),
      token: null,
      appKey: null,
    });
    expect(wrongKey.statusCode).toBe(404);
    const noKey = await server.inject({ method: 'GET', url: path.replace(/\?key=.*/, ''), token: null, appKey: null });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().errors.join(' ')).toContain('key is required');

    const row = await server.ctx.db.selectFrom('avatars').select('custom_data').where('id', '=', a.id).executeTakeFirstOrThrow();
    await server.ctx.db
      .updateTable('avatars')
      .set({ custom_data: JSON.stringify({ ...(row.custom_data as Record<string, unknown>), enable_transcript_download: false }) })
      .where('id', '=', a.id)
      .execute();
    const off = await server.inject({ method: 'GET', url: path, token: null, appKey: null });
    expect(off.statusCode).toBe(403);
    expect(off.json().errors).toEqual([TRANSCRIPT_DOWNLOAD_OFF_MESSAGE]);
  });

  it('offers no download without the option, on a plan below PRO, or for an avatar that is not realtime', async () => {
    for (const [download, plan, realtime] of [
      [false, 2, true],
      [true, 1, true],
      [true, 4, false],
    ] as const) {
      const a = await realtimeAvatar(download, plan);
      if (!realtime) await server.ctx.db.updateTable('avatars').set({ realtime: false }).where('id', '=', a.id).execute();
      const c = await connect(host, { avatarId: a.id, token: a.token });
      expect((await c.next('ready')).transcriptUrl, `${download} ${plan} ${realtime}`).toBeUndefined();
    }
    await server.ctx.db.updateTable('users').set({ subscription_type: 4 }).where('id', '=', alice.id).execute();
  });
});
