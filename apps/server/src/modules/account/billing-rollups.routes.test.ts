// The billing report from hourly and daily rollups (migration 0680, decision 500's amendment): for any
// range (any two instants, whole hours or not, local midnights of any time zone) it answers what
// the report computed from every conversation row gave before (that statement is kept here as
// the reference, with a tie-break by id for the latest name), page by page, with the totals;
// through every write the runtime makes (start, heartbeats, end, a lost node's end), renames,
// rows changed or deleted by hand, and the migration's backfill.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { backfillBillingHours } from '../../db/migrations/0680-billing-hours';
import { endConversation, endLost, startConversation, touchConversations } from '../conversations/conversations.repository';
import type { DB } from '../../db/schema';

let server: TestServer;
let alice: TestAccount;
let bob: TestAccount;

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.UTC(2025, 2, 1); // a window of four days from here
const SPAN = 4 * 24 * HOUR;

/** The report as computed from every conversation row before the rollups (decision 500). */
async function reference(db: Kysely<DB>, ownerId: string, start: number, end: number, limit: number, offset: number) {
  const s = new Date(start);
  const e = new Date(end);
  const until = sql`coalesce(ended_at, last_seen_at)`;
  const res = await sql<{
    avatar_id: string | null;
    avatar_name: string | null;
    minutes: number;
    calls: number;
    total: number;
    total_minutes: number;
    total_calls: number;
  }>`
    with usage as (
      select avatar_id,
             (array_agg(avatar_name order by started_at desc, id desc))[1] as avatar_name,
             coalesce(sum(greatest(0, extract(epoch from (least(${until}, ${e}::timestamptz) - greatest(started_at, ${s}::timestamptz))) * 1000)), 0)::float8 as duration_ms,
             count(*)::int as calls
        from conversations
       where owner_id = ${ownerId}
         and ${s}::timestamptz < ${e}::timestamptz
         and started_at < ${e}::timestamptz
         and (${until} > ${s}::timestamptz or (${until} <= started_at and started_at >= ${s}::timestamptz))
       group by avatar_id),
    rounded as (select avatar_id, avatar_name, floor((duration_ms / 60000.0) * 100 + 0.5) / 100 as minutes, calls from usage),
    totals as (select count(*)::int as total, coalesce(sum(minutes * 100), 0)::float8 as centi, coalesce(sum(calls), 0)::int as total_calls from rounded),
    page as (select * from rounded order by lower(avatar_name), avatar_name, avatar_id limit ${limit} offset ${offset})
    select page.avatar_id, page.avatar_name, page.minutes::float8 as minutes, page.calls,
           totals.total, floor(totals.centi + 0.5)::float8 / 100 as total_minutes, totals.total_calls
      from totals left join page on true
     order by lower(page.avatar_name), page.avatar_name, page.avatar_id
  `.execute(db);
  const head = res.rows[0];
  const billingData = res.rows
    .filter((r) => r.avatar_id !== null)
    .map((r) => ({
      avatarName: r.avatar_name,
      avatarId: r.avatar_id,
      totalCallDuration: Number(r.minutes),
      totalCallCount: Number(r.calls),
    }));
  const total = Number(head?.total ?? 0);
  const next = offset + billingData.length;
  return {
    billingData,
    cummulativeData: {
      avatarName: 'Total',
      avatarId: '',
      totalCallDuration: Number(head?.total_minutes ?? 0),
      totalCallCount: Number(head?.total_calls ?? 0),
    },
    total,
    nextOffset: next < total && billingData.length > 0 ? next : null,
  };
}

async function report(owner: TestAccount, start: number, end: number, limit: number, offset: number) {
  const url = `/api/account_stats?startDate=${start}&endDate=${end}&limit=${limit}&offset=${offset}`;
  const res = await server.inject({ method: 'GET', url, token: owner.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Both answers for one range and page must be equal. */
async function same(owner: TestAccount, start: number, end: number, limit = 200, offset = 0) {
  const want = await reference(server.ctx.db, owner.id, start, end, limit, offset);
  expect(await report(owner, start, end, limit, offset), `range ${start}..${end} limit ${limit} offset ${offset}`).toEqual(want);
}

/** A seeded pseudo-random sequence, so a failure can be replayed. */
function random(seed: number) {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    x ^= x + Math.imul(x ^ (x >>> 7), 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const record = (owner: string, avatar: string, name: string, from: number) => ({
  id: randomUUID(),
  owner_id: owner,
  avatar_id: avatar,
  avatar_name: name,
  avatar_type: '2d',
  user_id: 'visitor',
  user_name: 'Visitor',
  started_at: new Date(from),
  last_seen_at: new Date(from),
});

const NAMES = ['Émile', 'émile', 'Zoë', 'zoe', 'Ångström', 'ß Bot', 'Straße', 'Ωmega', 'ωmega', '日本 Bot', '𝒜 Bot', 'Bot', 'bot'];

/** Conversations of every kind over T0..T0+SPAN, written as the runtime writes them. */
async function seed(owner: TestAccount, rnd: () => number, count: number) {
  const db = server.ctx.db;
  const open: string[] = [];
  for (let i = 0; i < count; i++) {
    const avatar = `av-${Math.floor(rnd() * 12)}`;
    // Some names shared by several avatars (ties broken by id), differing only in case, or
    // non-ASCII (accented, Greek, CJK, beyond the Basic Multilingual Plane): the report orders
    // rows by lower-cased name, then name, then id, and must keep that order.
    const name =
      rnd() < 0.15
        ? `Renamed ${avatar}`
        : rnd() < 0.2
          ? NAMES[Math.floor(rnd() * NAMES.length)]!
          : rnd() < 0.5
            ? `bot ${avatar}`
            : `Bot ${avatar}`;
    const from = T0 + Math.floor(rnd() * SPAN);
    const kind = rnd();
    const length =
      kind < 0.08
        ? 0
        : kind < 0.6
          ? Math.floor(rnd() * 20 * MIN)
          : kind < 0.9
            ? Math.floor(rnd() * 3 * HOUR)
            : Math.floor(rnd() * 30 * HOUR);
    const row = record(owner.id, avatar, name, from);
    if (kind > 0.97) {
      // Still open: counted up to its last heartbeat.
      await startConversation(db, row);
      open.push(row.id);
      await touchConversations(db, [row.id], new Date(from + length));
    } else if (rnd() < 0.5) {
      await startConversation(db, row);
      if (rnd() < 0.2) await endLost(db, row.id, new Date(from + length));
      else await endConversation(db, row.id, new Date(from + length), 'bye');
    } else {
      // Written ended in one statement (an import, the bench's seed).
      await db
        .insertInto('conversations')
        .values({ ...row, last_seen_at: new Date(from + length), ended_at: new Date(from + length), end_reason: 'bye' })
        .execute();
    }
  }
  return open;
}

/** Ranges of every shape inside and around the seeded window. */
function ranges(rnd: () => number): [number, number][] {
  const out: [number, number][] = [
    [T0 - 24 * HOUR, T0 + SPAN + 24 * HOUR],
    [T0, T0 + 24 * HOUR],
    [T0 + 5 * HOUR, T0 + 5 * HOUR],
    [T0 + 24 * HOUR - 5.5 * HOUR, T0 + 48 * HOUR - 5.5 * HOUR], // a local day at UTC+5:30
    [T0 + 24 * HOUR + 45 * MIN, T0 + 72 * HOUR + 45 * MIN], // a local day at UTC-0:45
  ];
  for (let i = 0; i < 40; i++) {
    const a = T0 - 6 * HOUR + Math.floor(rnd() * (SPAN + 12 * HOUR));
    const shape = rnd();
    const b = shape < 0.3 ? a + Math.floor(rnd() * HOUR) : shape < 0.6 ? a + Math.floor(rnd() * 6 * HOUR) : a + Math.floor(rnd() * SPAN);
    out.push(rnd() < 0.2 ? [Math.floor(a / HOUR) * HOUR, Math.ceil(b / HOUR) * HOUR] : [a, b]);
  }
  return out;
}

beforeAll(async () => {
  server = await createTestServer();
  alice = await createCustomer(server, 'alice');
  bob = await createCustomer(server, 'bob');
  await seed(alice, random(37), 400);
  await seed(bob, random(38), 60);
});
afterAll(async () => {
  await server.close();
});

describe('billing report from hourly and daily rollups', () => {
  it('answers as the report over every conversation row for ranges of every shape, page by page', async () => {
    const rnd = random(4);
    for (const [start, end] of ranges(rnd)) {
      await same(alice, start, end);
      await same(alice, start, end, 3, Math.floor(rnd() * 12));
    }
    await same(bob, T0 - HOUR, T0 + SPAN + HOUR);
  });

  it('answers as the reference for arbitrary instants', async () => {
    const instant = fc.integer({ min: T0 - 12 * HOUR, max: T0 + SPAN + 12 * HOUR });
    await fc.assert(
      fc.asyncProperty(instant, instant, fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 13 }), async (a, b, limit, offset) => {
        await same(alice, Math.min(a, b), Math.max(a, b), limit, offset);
      }),
      { numRuns: 40, seed: 500 },
    );
  });

  it('follows conversations changed or deleted by hand, and ended later', async () => {
    const db = server.ctx.db;
    const open = await seed(alice, random(99), 60);
    for (const id of open) await endConversation(db, id, new Date(T0 + SPAN - HOUR), 'bye');
    const some = await db.selectFrom('conversations').select('id').where('owner_id', '=', alice.id).orderBy('id').limit(30).execute();
    for (const [i, { id }] of some.entries()) {
      if (i % 3 === 0) await db.deleteFrom('conversations').where('id', '=', id).execute();
      else if (i % 3 === 1)
        await db
          .updateTable('conversations')
          .set({ avatar_name: `Moved ${i}`, avatar_id: 'av-moved' })
          .where('id', '=', id)
          .execute();
      else await sql`update conversations set started_at = started_at - interval '90 minutes' where id = ${id}`.execute(db);
    }
    const rnd = random(7);
    for (const [start, end] of ranges(rnd)) await same(alice, start, end, 4, Math.floor(rnd() * 8));
  });

  it('makes the same rollups from stored conversations as the writes made (the migration backfill)', async () => {
    const db = server.ctx.db;
    const read = async () => ({
      hours: (await sql`select * from billing_hours order by owner_id, hour, avatar_id`.execute(db)).rows,
      days: (await sql`select * from billing_days order by owner_id, day, avatar_id`.execute(db)).rows,
      crossings: (await sql`select * from billing_crossings order by owner_id, hour, conversation_id`.execute(db)).rows,
    });
    const kept = await read();
    expect(kept.hours.length).toBeGreaterThan(0);
    expect(kept.crossings.length).toBeGreaterThan(0);
    expect(kept.days.length).toBeGreaterThan(0);
    await sql`delete from billing_hours`.execute(db);
    expect((await read()).days).toEqual([]);
    await sql`delete from billing_crossings`.execute(db);
    await backfillBillingHours(db as unknown as Kysely<unknown>);
    expect(await read()).toEqual(kept);
  });

  it('lets an account go with its conversations and rollups', async () => {
    const carol = await createCustomer(server, 'carol');
    await seed(carol, random(5), 20);
    await server.ctx.db.deleteFrom('users').where('id', '=', carol.id).execute();
    const left = await sql<{ n: number }>`select count(*)::int as n from billing_hours where owner_id = ${carol.id}`.execute(server.ctx.db);
    expect(left.rows[0]!.n).toBe(0);
  });
});
