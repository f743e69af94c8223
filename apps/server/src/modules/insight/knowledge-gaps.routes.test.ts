// Knowledge gaps (issue 38 item 3) through real conversations: an LLM avatar (the OpenAI stand-in
// answers from the passage it was given, or says it does not know) with a knowledge collection;
// the questions it could not answer are grouped by meaning under its knowledge gaps; the answer
// written from a gap is what the next visitor is answered with, and the gap drops off. Owner
// scoped (another account's avatar or gap is a 404), validated by the shared schema.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AvatarEngine } from '@parla/shared/enums';
import type { Avatar } from '@parla/shared/schemas/avatar';
import type { KnowledgeGapsResponse } from '@parla/shared/schemas/insight';
import { createTestServer, type TestServer } from '../../../test/harness';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { closeAll, connect, listen } from '../../../test/conversation-client';
import { startOpenAiStandIn, STAND_IN_KEY, type OpenAiStandIn } from '../../../test/stand-ins/runtime/openai';
import { save } from '../../../test/avatar-requests';
import { kbClient, type Kb } from '../../../test/knowledge-requests';
import { startKnowledgeWorker, type KnowledgeWorker } from '../knowledge/knowledge.worker';

let server: TestServer;
let host: string;
let openai: OpenAiStandIn;
let worker: KnowledgeWorker;
let alice: TestAccount;
let mallory: TestAccount;
let kb: Kb;
let appearance: { id: string; type: string };

/** The model answers from the first passage it was given, else says it does not know. */
function knowledgeReply(messages: { role: string; content: string | null }[]) {
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const hit = /\[1\] \(source: ([^)]+)\)\n([^\n]+)/.exec(system);
  return { content: [hit ? `According to ${hit[1]}: ${hit[2]}` : 'I do not know that.'] };
}

async function llmAvatar(owner: TestAccount, collectionIds: string[]): Promise<Avatar & { token: string }> {
  const base = { name: 'Shop Desk', dhType: appearance.type, appearanceId: appearance.id };
  const created = (await save(server, owner.token, base)).json().agent as Avatar & { updated: string };
  const res = await save(server, owner.token, {
    ...base,
    id: created.id,
    updated: created.updated,
    nlpEngine: AvatarEngine.LargeLanguageModel,
    setupMode: 'Composite',
    customData: {
      collection_ids: collectionIds,
      agent_pipeline_config: {
        llm: {
          provider: 'openai',
          base_url: `${openai.url}/v1`,
          api_key: STAND_IN_KEY,
          model: 'stand-in-model',
          instructions: 'You are the shop.',
          custom_text: 'Be brief.',
        },
      },
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().agent;
}

/** One visitor's conversation: each question and the answer's text and sources, then the end. */
async function visit(a: { id: string; token: string }, questions: string[]) {
  const c = await connect(host, { avatarId: a.id, token: a.token });
  await c.next('ready');
  await c.next('assistant_done'); // the greeting: the answer to the hidden wake-up message
  const answers = [];
  for (const q of questions) answers.push(await c.ask(q));
  c.send({ type: 'bye' });
  await c.closed;
  return answers;
}

async function gaps(owner: TestAccount, avatarId: string, status = 'open'): Promise<KnowledgeGapsResponse> {
  const res = await server.inject({ method: 'GET', url: `/api/avatars/${avatarId}/knowledge-gaps?status=${status}`, token: owner.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Waits until every ended conversation of the avatar has been analysed. */
async function analysed(avatarId: string) {
  const pending = async () =>
    (
      await server.ctx.db
        .selectFrom('conversations')
        .select('id')
        .where('avatar_id', '=', avatarId)
        .where('analysed_at', 'is', null)
        .execute()
    ).length;
  await expect.poll(pending, { timeout: 10_000 }).toBe(0);
}

beforeAll(async () => {
  openai = await startOpenAiStandIn();
  openai.reply = knowledgeReply;
  server = await createTestServer({ OUTBOUND_ALLOW: openai.allow, PROVIDER_URL_OVERRIDES: `api.openai.com=${openai.url}` });
  host = await listen(server);
  worker = startKnowledgeWorker(server.ctx, { pollMs: 60_000 });
  alice = await createCustomer(server, 'gaps');
  mallory = await createCustomer(server, 'gaps-other');
  for (const who of [alice, mallory])
    await server.ctx.db.updateTable('users').set({ subscription_type: 4 }).where('id', '=', who.id).execute();
  kb = await kbClient(server, alice);
  const cat = await server.inject({ method: 'GET', url: '/api/catalogue/avatars' });
  appearance = (cat.json().avatars as { id: string; type: string }[]).find((a) => a.type === '2d')!;
});

afterEach(async () => {
  await closeAll();
});

afterAll(async () => {
  await worker.stop();
  await server.close();
  await openai.close();
});

describe('knowledge gaps', () => {
  it("groups the questions the knowledge does not cover; the answer written from a gap answers the next visitor's identical and reworded questions, and the gap drops off", async () => {
    const col = (await kb('POST', '/kb/v1/collections', { name: 'Shop guide' })).json();
    await kb('POST', `/kb/v1/collections/${col.id}/items`, {
      name: 'Opening hours',
      knowledge_type: { text: { content: 'The shop is open from 9 to 18, Monday to Saturday.' } },
    });
    await worker.drain();
    const a = await llmAvatar(alice, [col.id]);

    const [first, known] = await visit(a, ['Do you ship to Canada?', 'When is the shop open?']);
    expect(first!.text).toBe('I do not know that.');
    expect(known!.text).toBe('According to Opening hours: The shop is open from 9 to 18, Monday to Saturday.');
    await visit(a, ['Can you deliver my parcel to Canada?']);
    await visit(a, ['Hello!']);

    await expect.poll(async () => (await gaps(alice, a.id)).gaps[0]?.asked, { timeout: 10_000 }).toBe(2);
    const open = await gaps(alice, a.id);
    expect(open.total).toBe(1);
    expect(open.collections).toEqual([{ id: col.id, name: 'Shop guide' }]);
    const gap = open.gaps[0]!;
    expect(gap.question).toBe('Do you ship to Canada?');
    expect(gap.examples.map((e) => e.text).sort()).toEqual(['Can you deliver my parcel to Canada?', 'Do you ship to Canada?']);
    expect(gap.examples.every((e) => e.reason === 'did_not_know' || e.reason === 'no_knowledge')).toBe(true);
    expect(Date.parse(gap.lastAt)).toBeGreaterThanOrEqual(Date.parse(gap.firstAt));

    // Another account sees none of it, and cannot answer or dismiss it.
    const foreign = await server.inject({ method: 'GET', url: `/api/avatars/${a.id}/knowledge-gaps`, token: mallory.token });
    expect(foreign.statusCode).toBe(404);
    const steal = await server.inject({
      method: 'POST',
      url: `/api/avatars/${a.id}/knowledge-gaps/${gap.id}/answer`,
      token: mallory.token,
      payload: { collectionId: col.id, question: gap.question, answer: 'No.' },
    });
    expect(steal.statusCode).toBe(404);

    const answered = await server.inject({
      method: 'POST',
      url: `/api/avatars/${a.id}/knowledge-gaps/${gap.id}/answer`,
      token: alice.token,
      payload: { collectionId: col.id, question: gap.question, answer: 'Yes: we deliver parcels to Canada within 5 working days.' },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    expect((await gaps(alice, a.id)).total).toBe(0);
    expect((await gaps(alice, a.id, 'resolved')).gaps.map((g) => [g.id, g.resolvedBy])).toEqual([[gap.id, 'written']]);
    await worker.drain();

    // Two next visitors: one asks the same, the other in other words.
    const next = [...(await visit(a, ['Do you ship to Canada?'])), ...(await visit(a, ['Could you deliver to Canada?']))];
    for (const n of next) {
      expect(n.text).toBe('According to Do you ship to Canada?: Yes: we deliver parcels to Canada within 5 working days.');
      expect(n.sources).toEqual([{ name: 'Do you ship to Canada?', itemId: answered.json().itemId }]);
    }
    await analysed(a.id);
    expect((await gaps(alice, a.id)).total).toBe(0);
  });

  it("a gap answered from knowledge later is resolved by itself; a dismissed one leaves the list; bad input is refused with the schema's messages", async () => {
    const col = (await kb('POST', '/kb/v1/collections', { name: 'Returns' })).json();
    const a = await llmAvatar(alice, [col.id]);
    await visit(a, ['What is the return policy for shoes?', 'Do you sell gift cards?']);
    await expect.poll(async () => (await gaps(alice, a.id)).total, { timeout: 10_000 }).toBe(2);
    const giftCards = (await gaps(alice, a.id)).gaps.find((g) => g.question.includes('gift'))!;

    // The customer adds the answer in the knowledge base itself: the next identical question is
    // answered from it, which resolves the gap.
    await kb('POST', `/kb/v1/collections/${col.id}/items`, {
      name: 'Returns of shoes',
      knowledge_type: { text: { content: 'Shoes may be returned within 30 days: that is the return policy for shoes.' } },
    });
    await worker.drain();
    const [returns] = await visit(a, ['What is the return policy for shoes?']);
    expect(returns!.text).toBe('According to Returns of shoes: Shoes may be returned within 30 days: that is the return policy for shoes.');
    await expect.poll(async () => (await gaps(alice, a.id)).gaps.map((g) => g.id), { timeout: 10_000 }).toEqual([giftCards.id]);
    expect((await gaps(alice, a.id, 'resolved')).gaps[0]?.resolvedBy).toBe('answered');

    const dismissed = await server.inject({
      method: 'POST',
      url: `/api/avatars/${a.id}/knowledge-gaps/${giftCards.id}/dismiss`,
      token: alice.token,
    });
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect((await gaps(alice, a.id)).total).toBe(0);
    expect((await gaps(alice, a.id, 'dismissed')).gaps.map((g) => g.id)).toEqual([giftCards.id]);
    const again = await server.inject({
      method: 'POST',
      url: `/api/avatars/${a.id}/knowledge-gaps/${giftCards.id}/dismiss`,
      token: alice.token,
    });
    expect(again.statusCode).toBe(404);

    const bad = [
      ['GET', `/api/avatars/${a.id}/knowledge-gaps?status=everything`, undefined, "status must be 'open', 'dismissed' or 'resolved'"],
      ['GET', `/api/avatars/${a.id}/knowledge-gaps?pageSize=1000`, undefined, 'pageSize must be at most 50'],
      [
        'POST',
        `/api/avatars/${a.id}/knowledge-gaps/${giftCards.id}/answer`,
        { collectionId: col.id, question: 'Q?', answer: '  ' },
        'Write the answer.',
      ],
      [
        'POST',
        `/api/avatars/${a.id}/knowledge-gaps/${giftCards.id}/answer`,
        { collectionId: 'elsewhere', question: 'Q?', answer: 'A.' },
        'Choose a knowledge collection linked to this avatar.',
      ],
      ['POST', `/api/avatars/${a.id}/knowledge-gaps/${giftCards.id}/answer`, {}, 'Choose a knowledge collection.'],
    ] as const;
    for (const [method, url, payload, message] of bad) {
      const res = await server.inject({
        method,
        url,
        token: alice.token,
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
      expect(res.statusCode, `${url} ${res.body}`).toBe(400);
      if (message) expect(res.body).toContain(message);
    }
    const missing = await server.inject({ method: 'GET', url: '/api/avatars/not-an-avatar/knowledge-gaps', token: alice.token });
    expect(missing.statusCode).toBe(404);
  });
});

describe('conversation insight', () => {
  it("counts the range's conversations, durations, turns, knowledge share, unanswered rate and top questions; searches and exports its transcripts; owner scoped", async () => {
    const col = (await kb('POST', '/kb/v1/collections', { name: 'Insight guide' })).json();
    await kb('POST', `/kb/v1/collections/${col.id}/items`, {
      name: 'Shop hours',
      knowledge_type: { text: { content: 'The shop opens at 9 and closes at 18 every weekday.' } },
    });
    await worker.drain();
    const a = await llmAvatar(alice, [col.id]);
    await visit(a, ['When does the shop open?', 'Do you ship to Mars?']);
    await visit(a, ['When does the shop open?']);
    const today = new Date().toISOString().slice(0, 10);
    const url = `/api/avatars/${a.id}/insight?from=${today}&to=${today}`;
    await expect
      .poll(async () => (await server.inject({ method: 'GET', url, token: alice.token })).json().turns, { timeout: 10_000 })
      .toBe(3);
    const res = (await server.inject({ method: 'GET', url, token: alice.token })).json();
    expect(res).toMatchObject({ conversations: 2, turns: 3, knowledgeTurns: 2, unansweredTurns: 1 });
    expect(res.knowledgeShare).toBeCloseTo(2 / 3);
    expect(res.unansweredRate).toBeCloseTo(1 / 3);
    expect(res.totalSeconds).toBeGreaterThanOrEqual(res.medianSeconds);
    expect(res.days).toEqual([{ day: today, conversations: 2, turns: 3, unansweredTurns: 1 }]);
    expect(res.topQuestions[0]).toEqual({ text: 'When does the shop open?', count: 2 });

    const found = await server.inject({
      method: 'GET',
      url: `/api/avatars/${a.id}/insight/conversations?from=${today}&to=${today}&q=MARS`,
      token: alice.token,
    });
    expect(found.json().conversations).toHaveLength(1);
    expect(found.json().hasMore).toBe(false);
    const all = await server.inject({
      method: 'GET',
      url: `/api/avatars/${a.id}/insight/conversations?from=${today}&to=${today}&pageSize=1`,
      token: alice.token,
    });
    expect(all.json()).toMatchObject({ hasMore: true, page: 1, pageSize: 1 });

    const csv = await server.inject({
      method: 'GET',
      url: `/api/avatars/${a.id}/insight/export?from=${today}&to=${today}&format=csv`,
      token: alice.token,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="conversations-${today}-${today}.csv"`);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('conversation_id,started_at,user_name,seq,role,at,text,interrupted');
    expect(lines.filter((l) => l.includes(',user,'))).toHaveLength(3);
    expect(csv.body).toContain('Do you ship to Mars?');
    const json = await server.inject({
      method: 'GET',
      url: `/api/avatars/${a.id}/insight/export?from=${today}&to=${today}&format=json&q=mars`,
      token: alice.token,
    });
    const parsed = JSON.parse(json.body) as { conversations: { messages: { role: string; text: string }[] }[] };
    expect(parsed.conversations).toHaveLength(1);
    expect(parsed.conversations[0]!.messages.filter((m) => m.role === 'user').map((m) => m.text)).toEqual([
      'When does the shop open?',
      'Do you ship to Mars?',
    ]);

    for (const path of ['insight', 'insight/conversations', 'insight/export']) {
      const foreign = await server.inject({
        method: 'GET',
        url: `/api/avatars/${a.id}/${path}?from=${today}&to=${today}&format=csv`,
        token: mallory.token,
      });
      expect(foreign.statusCode, path).toBe(404);
    }
    const bad = [
      [`from=2026-02-01&to=2026-01-01`, 'The start date cannot be after the end date.'],
      [`from=2024-01-01&to=2026-01-01`, 'The range may span at most 366 days.'],
      [`from=2026-02-30&to=2026-03-01`, 'from must be a date (YYYY-MM-DD)'],
      [`to=2026-03-01`, 'from is required'],
    ];
    for (const [query, message] of bad) {
      const r = await server.inject({ method: 'GET', url: `/api/avatars/${a.id}/insight?${query}`, token: alice.token });
      expect(r.statusCode, query).toBe(400);
      expect(r.body).toContain(message);
    }
  });
});
