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

    const next = await visit(a, ['Do you ship to Canada?', 'Could you deliver to Canada?']);
    for (const n of next) {
      expect(n.text).toBe('According to Do you ship to Canada?: Yes: we deliver parcels to Canada within 5 working days.');
      expect(n.sources).toEqual([{ name: 'Do you ship to Canada?', itemId: answered.json().itemId }]);
    }
    await new Promise((r) => setTimeout(r, 300));
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
