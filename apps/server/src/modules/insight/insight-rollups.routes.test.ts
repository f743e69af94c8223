// The insight's stored figures (migration 0641, decision 416): a conversation analysed adds its
// day's count, duration and turns and its visitors' questions to the rollups, once; the insight
// read from them (plus the conversations not analysed yet: live, or ended moments ago) answers
// what the same figures recomputed from every conversation and message of the range give (the
// queries the insight ran before, kept here as the reference); the migration's backfill makes
// the same rollups from stored conversations.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InsightResponse } from '@parla/shared/schemas/insight';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { save } from '../../../test/avatar-requests';
import { createTestServer, type TestServer } from '../../../test/harness';
import { backfillInsightRollups } from '../../db/migrations/0641-insight-rollups';
import { addMessages } from '../conversations/transcripts.repository';
import { analyseConversation } from './knowledge-gaps.analyse';
import { topQuestions } from './top-questions';

let server: TestServer;
let alice: TestAccount;
let bob: TestAccount;
let avatarId: string;
let otherAvatarId: string;

const DAY = 86_400_000;
const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function avatarOf(owner: TestAccount): Promise<string> {
  const cat = await server.inject({ method: 'GET', url: '/api/catalogue/avatars' });
  const appearance = (cat.json().avatars as { id: string; type: string }[]).find((a) => a.type === '2d')!;
  const res = await save(server, owner.token, { name: 'Desk', dhType: appearance.type, appearanceId: appearance.id });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().agent.id;
}

/** A conversation as the runtime leaves it: the record, then its transcript (question, answer with its knowledge hits). */
async function conversation(
  owner: TestAccount,
  avatar: string,
  startMs: number,
  o: { seconds: number; live?: boolean; turns: [string, number | null][] },
): Promise<string> {
  const id = randomUUID();
  const end = new Date(startMs + o.seconds * 1000);
  await server.ctx.db
    .insertInto('conversations')
    .values({
      id,
      owner_id: owner.id,
      avatar_id: avatar,
      avatar_name: 'Desk',
      avatar_type: '2d',
      user_id: `v-${id}`,
      user_name: 'Visitor',
      status: o.live ? 'ONLINE' : 'OFFLINE',
      started_at: new Date(startMs),
      last_seen_at: end,
      ended_at: o.live ? null : end,
      end_reason: o.live ? null : 'client',
    })
    .execute();
  const step = (o.seconds * 1000) / (2 * o.turns.length + 1);
  await addMessages(server.ctx.db, [
    {
      conversationId: id,
      ownerId: owner.id,
      avatarId: avatar,
      seq: 0,
      role: 'wake_up',
      text: 'hello',
      at: new Date(startMs),
      interrupted: false,
    },
    ...o.turns.flatMap(([question, hits], i) => [
      {
        conversationId: id,
        ownerId: owner.id,
        avatarId: avatar,
        seq: 2 * i + 1,
        role: 'user',
        text: question,
        at: new Date(startMs + (2 * i + 1) * step),
        interrupted: false,
      },
      {
        conversationId: id,
        ownerId: owner.id,
        avatarId: avatar,
        seq: 2 * i + 2,
        role: 'assistant',
        text: hits === 0 ? 'I do not know that.' : 'Here is the answer.',
        at: new Date(startMs + (2 * i + 2) * step),
        interrupted: false,
        knowledgeHits: hits,
      },
    ]),
  ]);
  return id;
}

/** The figures recomputed from every conversation and message of [from, to] (the insight's queries before 0641). */
async function recomputed(owner: TestAccount, avatar: string, from: string, to: string) {
  const [start, end] = [new Date(`${from}T00:00:00Z`), new Date(Date.parse(`${to}T00:00:00Z`) + DAY)];
  const range = sql`owner_id = ${owner.id} and avatar_id = ${avatar} and started_at >= ${start} and started_at < ${end}`;
  const dur = sql`extract(epoch from (coalesce(ended_at, last_seen_at) - started_at))`;
  const t = (
    await sql<Record<string, number | null>>`
      select count(*)::int as conversations, sum(${dur})::float8 as total, percentile_cont(0.5) within group (order by ${dur})::float8 as median,
             coalesce(sum(turns), 0)::int as turns, coalesce(sum(knowledge_turns), 0)::int as knowledge, coalesce(sum(unanswered_turns), 0)::int as unanswered
        from conversations where ${range}`.execute(server.ctx.db)
  ).rows[0]!;
  const days = (
    await sql<{ day: string; conversations: number; turns: number; unansweredTurns: number }>`
      select to_char(date_trunc('day', started_at at time zone 'UTC'), 'YYYY-MM-DD') as day, count(*)::int as conversations,
             sum(turns)::int as turns, sum(unanswered_turns)::int as "unansweredTurns"
        from conversations where ${range} group by 1 order by 1`.execute(server.ctx.db)
  ).rows;
  const top = (
    await sql<{ text: string; count: number }>`
      select min(text) as text, count(*)::int as count from (
        select m.text, trim(regexp_replace(lower(m.text), '[^[:alnum:]]+', ' ', 'g')) as k from conversation_messages m
         where m.owner_id = ${owner.id} and m.avatar_id = ${avatar} and m.role = 'user' and m.at >= ${start} and m.at < ${end}
      ) x where k <> '' group by k order by count(*) desc, k limit 10`.execute(server.ctx.db)
  ).rows;
  return { t, days, top };
}

async function insight(owner: TestAccount, avatar: string, from: string, to: string): Promise<InsightResponse> {
  const res = await server.inject({ method: 'GET', url: `/api/avatars/${avatar}/insight?from=${from}&to=${to}`, token: owner.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function expectSameAsRecomputed(from: string, to: string) {
  const got = await insight(alice, avatarId, from, to);
  const want = await recomputed(alice, avatarId, from, to);
  const round = (n: number | null) => Math.round(Number(n ?? 0) * 10) / 10;
  expect({
    conversations: got.conversations,
    totalSeconds: got.totalSeconds,
    medianSeconds: got.medianSeconds,
    turns: got.turns,
    knowledgeTurns: got.knowledgeTurns,
    unansweredTurns: got.unansweredTurns,
  }).toEqual({
    conversations: want.t.conversations,
    totalSeconds: round(want.t.total!),
    medianSeconds: round(want.t.median!),
    turns: want.t.turns,
    knowledgeTurns: want.t.knowledge,
    unansweredTurns: want.t.unanswered,
  });
  expect(got.days.filter((d) => d.conversations > 0)).toEqual(want.days);
  expect(got.topQuestions).toEqual(want.top);
  return got;
}

const rollups = async (db: Kysely<unknown>) => ({
  days: (
    await sql<Record<string, unknown>>`
      select owner_id, avatar_id, to_char(day, 'YYYY-MM-DD') as day, conversations, round(seconds::numeric, 3)::text as seconds,
             (select array_agg(round(d::numeric, 3)::text order by d) from unnest(durations) d) as durations, turns, knowledge_turns, unanswered_turns
        from insight_days order by owner_id, avatar_id, day`.execute(db)
  ).rows,
  questions: (
    await sql<Record<string, unknown>>`
      select owner_id, avatar_id, to_char(day, 'YYYY-MM-DD') as day, key, text, asked from insight_questions order by owner_id, avatar_id, day, key`.execute(
      db,
    )
  ).rows,
  keys: (await sql<Record<string, unknown>>`select * from insight_question_keys order by owner_id, avatar_id, key`.execute(db)).rows,
});

beforeAll(async () => {
  server = await createTestServer();
  alice = await createCustomer(server, 'rollups');
  bob = await createCustomer(server, 'rollups-other');
  avatarId = await avatarOf(alice);
  otherAvatarId = await avatarOf(bob);
});

afterAll(async () => {
  await server.close();
});

describe('insight rollups', () => {
  it('an analysed conversation adds its day, duration, turns and questions once; the insight equals the figures recomputed from every row', async () => {
    // Three days back: one conversation crosses midnight (its questions fall on two days).
    const first = await conversation(alice, avatarId, today - 2 * DAY - 30_000, {
      seconds: 90,
      turns: [
        ['When do you open?', 1],
        ['Do you ship to Mars?!', 0],
      ],
    });
    expect(await analyseConversation(server.ctx, first)).toBe(true);
    const days = await server.ctx.db.selectFrom('insight_days').selectAll().where('avatar_id', '=', avatarId).execute();
    expect(
      days.map((d) => ({ conversations: d.conversations, turns: d.turns, knowledge: d.knowledge_turns, unanswered: d.unanswered_turns })),
    ).toEqual([{ conversations: 1, turns: 2, knowledge: 1, unanswered: 1 }]);
    expect(Number(days[0]!.seconds)).toBeCloseTo(90);
    const questions = await server.ctx.db
      .selectFrom('insight_questions')
      .select(['key', 'text', 'asked'])
      .select(sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'))
      .where('avatar_id', '=', avatarId)
      .orderBy('day')
      .execute();
    expect(questions).toEqual([
      { key: 'when do you open', text: 'When do you open?', asked: 1, day: iso(today - 3 * DAY) },
      { key: 'do you ship to mars', text: 'Do you ship to Mars?!', asked: 1, day: iso(today - 2 * DAY) },
    ]);
    // Analysed once: a second analysis neither claims it nor counts it again.
    expect(await analyseConversation(server.ctx, first)).toBe(false);
    expect((await rollups(server.ctx.db as unknown as Kysely<unknown>)).days).toHaveLength(1);

    // More days, another spelling of the same question, small talk, another account's avatar;
    // these are analysed by the insight's own catch-up (ended more than 5 s ago).
    await conversation(alice, avatarId, today - 2 * DAY + 3_600_000, {
      seconds: 40,
      turns: [
        ['when do you OPEN', 1],
        ['Hello!', null],
      ],
    });
    await conversation(alice, avatarId, today - 2 * DAY + 7_200_000, { seconds: 300, turns: [['Do you ship to Mars', 0]] });
    await conversation(alice, avatarId, today - DAY + 60_000, {
      seconds: 12.5,
      turns: [
        ['Gift cards?', 1],
        ['Gift cards?', 1],
      ],
    });
    await conversation(bob, otherAvatarId, today - DAY, { seconds: 50, turns: [['When do you open?', 1]] });
    // Not analysed yet: one live, one ended a moment ago (both read from themselves).
    const now = Date.now();
    await conversation(alice, avatarId, now - 20_000, { seconds: 20, live: true, turns: [['When do you open?', null]] });
    await conversation(alice, avatarId, now - 3_000, { seconds: 2, turns: [['Opening hours', 1]] });

    const all = await expectSameAsRecomputed(iso(today - 3 * DAY), iso(today));
    expect(all).toMatchObject({ conversations: 6, turns: 7, knowledgeTurns: 4, unansweredTurns: 2 });
    // Spellings folded; ties in the order of their folded text. (Which spelling is shown, the
    // least, follows the database's collation: the recomputation above checks it.)
    expect(all.topQuestions.map((q) => [q.text.toLowerCase().replace(/[^a-z ]/g, ''), q.count])).toEqual([
      ['when do you open', 3],
      ['do you ship to mars', 2],
      ['gift cards', 2],
      ['hello', 1],
      ['opening hours', 1],
    ]);
    for (const [from, to] of [
      [today - 2 * DAY, today - 2 * DAY],
      [today - 3 * DAY, today - 3 * DAY],
      [today - DAY, today],
      [today, today],
    ] as const)
      await expectSameAsRecomputed(iso(from), iso(to));
    const pending = await server.ctx.db
      .selectFrom('conversations')
      .select('id')
      .where('avatar_id', '=', avatarId)
      .where('analysed_at', 'is', null)
      .execute();
    expect(pending).toHaveLength(2);
    const other = await insight(bob, otherAvatarId, iso(today - 3 * DAY), iso(today));
    expect(other).toMatchObject({ conversations: 1, turns: 1, topQuestions: [{ text: 'When do you open?', count: 1 }] });

    // The ended one, once analysed, moves from the pending to the rollups: its duration and
    // questions count the same, and its turns now count.
    const before = await insight(alice, avatarId, iso(today - 3 * DAY), iso(today));
    server.advance(10_000);
    const after = await expectSameAsRecomputed(iso(today - 3 * DAY), iso(today));
    expect((await rollups(server.ctx.db as unknown as Kysely<unknown>)).days).toHaveLength(5); // Alice's four days, Bob's one
    const same = ({ conversations, totalSeconds, medianSeconds, topQuestions }: InsightResponse) => ({
      conversations,
      totalSeconds,
      medianSeconds,
      topQuestions,
    });
    expect(same(after)).toEqual(same(before));
    expect([after.turns, after.knowledgeTurns]).toEqual([before.turns + 1, before.knowledgeTurns + 1]);
  });

  it('the top questions walked by their count of all time, a few at a time, are those counted from every message of the range', async () => {
    // Questions with counts that tie, spread over days, some only in a live conversation.
    const asked: [number, string[]][] = [
      [today - 9 * DAY, ['Price?', 'Price?', 'Refunds', 'Colours', 'Sizes']],
      [today - 8 * DAY, ['price', 'Sizes', 'Hours', 'Parking']],
      [today - 7 * DAY, ['Refunds', 'Refunds', 'Wrapping', 'Gift cards?', 'Parking']],
      [today - 6 * DAY, ['Colours', 'Hours', 'Hours', 'Returns', 'Delivery times']],
      [today - 5 * DAY, ['Delivery times', 'Sizes', 'Warranty', 'Price']],
    ];
    for (const [start, questions] of asked)
      await conversation(alice, avatarId, start + 3_600_000, { seconds: 60, turns: questions.map((q) => [q, 1] as [string, number]) });
    await conversation(alice, avatarId, Date.now() - 5_000, {
      seconds: 5,
      live: true,
      turns: [
        ['Warranty', null],
        ['Zebra?', null],
      ],
    });
    await insight(alice, avatarId, iso(today - 9 * DAY), iso(today)); // analyses the ended ones
    const r = (from: number, to: number) => ({ ownerId: alice.id, avatarId, start: new Date(from), end: new Date(to + DAY) });
    for (const [from, to] of [
      [today - 9 * DAY, today],
      [today - 9 * DAY, today - 9 * DAY],
      [today - 8 * DAY, today - 6 * DAY],
      [today - 6 * DAY, today],
    ] as const) {
      const want = (await recomputed(alice, avatarId, iso(from), iso(to))).top;
      for (const [batch, maxSteps] of [
        [1, 100],
        [2, 100],
        [3, 1],
        [500, 4],
      ] as const) {
        const got = await topQuestions(server.ctx.db, r(from, to), 10, { batch, maxSteps });
        expect(
          got.map(({ text, count }) => ({ text, count })),
          `${iso(from)}..${iso(to)} by ${batch}`,
        ).toEqual(want);
      }
      for (const limit of [1, 3]) {
        const got = await topQuestions(server.ctx.db, r(from, to), limit, { batch: 2, maxSteps: 100 });
        expect(got.map(({ text, count }) => ({ text, count }))).toEqual(want.slice(0, limit));
      }
    }
  });

  it("the migration's backfill makes the rollups the analysis made", async () => {
    const db = server.ctx.db as unknown as Kysely<unknown>;
    const made = await rollups(db);
    expect(made.days.length).toBeGreaterThan(2);
    await sql`delete from insight_days`.execute(db);
    await sql`delete from insight_questions`.execute(db);
    await sql`delete from insight_question_keys`.execute(db);
    await backfillInsightRollups(db);
    expect(await rollups(db)).toEqual(made);
  });
});
