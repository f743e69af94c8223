// The billing report from hourly and daily rollups (migration 0680, decision 500's amendment): for any
// range (any two instants, whole hours or not, local midnights of any time zone) it answers what
// the report computed from every conversation row gave before (that statement is kept here as
// the reference, with a tie-break by id for the latest name), page by page, with the total row
// (since migration 0693 the exact minutes of every conversation rounded once, not the sum of the
// rounded rows: decision 500's amendment "the total row as the exact total");
// through every write the runtime makes (start, heartbeats, end, a lost node's end), renames,
// rows changed or deleted by hand, and the migration's backfill.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { backfillBillingHours } from '../../db/migrations/0680-billing-hours';
import { backfillBillingOwners } from '../../db/migrations/0692-billing-owner-rollups';
import { endConversation, endLost, startConversation, touchConversations } from '../conversations/conversations.repository';
import type { DB } from '../../db/schema';
import { minutesUsed, usagePage } from './billing.repository';
import { roundMinutes } from './usage';

let server: TestServer;
let alice: TestAccount;
let bob: TestAccount;

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.UTC(2025, 2, 1); // a window of four days from here
const SPAN = 4 * 24 * HOUR;

/**
 * The report as computed from every conversation row before the rollups (decision 500), with the
 * total row of decision 500's amendment "the total row as the exact total": the summed exact
 * minutes of every conversation in the range, rounded once as the plan's minutes are.
 */
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
    total_ms: number;
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
    totals as (select count(*)::int as total, coalesce(sum(duration_ms), 0)::float8 as total_ms, coalesce(sum(calls), 0)::int as total_calls from usage),
    page as (select * from rounded order by lower(avatar_name), avatar_name, avatar_id limit ${limit} offset ${offset})
    select page.avatar_id, page.avatar_name, page.minutes::float8 as minutes, page.calls,
           totals.total, totals.total_ms, totals.total_calls
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
      totalCallDuration: roundMinutes(Number(head?.total_ms ?? 0) / MIN),
      totalCallCount: Number(head?.total_calls ?? 0),
    },
    nextOffset: next < total && billingData.length > 0 ? next : null,
  };
}

/** The minutes of every conversation row overlapping the range, unrounded (the plan's usage before 0684). */
async function referenceMinutes(db: Kysely<DB>, ownerId: string, start: number, end: number): Promise<number> {
  const s = new Date(start);
  const e = new Date(end);
  const until = sql`coalesce(ended_at, last_seen_at)`;
  const res = await sql<{ ms: number }>`
    select coalesce(sum(greatest(0, extract(epoch from (least(${until}, ${e}::timestamptz) - greatest(started_at, ${s}::timestamptz))) * 1000)), 0)::float8 as ms
      from conversations
     where owner_id = ${ownerId}
       and ${s}::timestamptz < ${e}::timestamptz
       and started_at < ${e}::timestamptz
       and (${until} > ${s}::timestamptz or (${until} <= started_at and started_at >= ${s}::timestamptz))
  `.execute(db);
  return Number(res.rows[0]!.ms) / MIN;
}

async function report(owner: TestAccount, start: number, end: number, limit: number, offset: number) {
  const url = `/api/account_stats?startDate=${start}&endDate=${end}&limit=${limit}&offset=${offset}`;
  const res = await server.inject({ method: 'GET', url, token: owner.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Both answers for one range and page must be equal; returns the answer. */
async function same(owner: TestAccount, start: number, end: number, limit = 200, offset = 0) {
  const want = await reference(server.ctx.db, owner.id, start, end, limit, offset);
  expect(await report(owner, start, end, limit, offset), `range ${start}..${end} limit ${limit} offset ${offset}`).toEqual(want);
  // The plan's minutes (the account screen's usage, the runtime's monthly check) from the same rollups.
  const used = await minutesUsed(server.ctx.db, owner.id, new Date(start), new Date(end));
  const exact = await referenceMinutes(server.ctx.db, owner.id, start, end);
  expect(used, `minutes in ${start}..${end}`).toBeCloseTo(exact, 9);
  // The total row is the plan's minutes for the same range, rounded as the account screen rounds them.
  expect(want.cummulativeData.totalCallDuration).toBe(roundMinutes(exact));
  expect(want.cummulativeData.totalCallDuration).toBe(roundMinutes(used));
  return want;
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
    let roundedApart = 0;
    for (const [start, end] of ranges(rnd)) {
      const whole = await same(alice, start, end);
      expect(whole.nextOffset).toBeNull();
      const rows = whole.billingData.reduce((sum, r) => sum + Math.round(r.totalCallDuration * 100), 0) / 100;
      if (rows !== whole.cummulativeData.totalCallDuration) roundedApart++;
      await same(alice, start, end, 3, Math.floor(rnd() * 12));
    }
    // The total row is not the sum of the rounded rows in some of these ranges (the exact total).
    expect(roundedApart).toBeGreaterThan(0);
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
      ownerHours: (await sql`select * from billing_owner_hours order by owner_id, hour`.execute(db)).rows,
      ownerDays: (await sql`select * from billing_owner_days order by owner_id, day`.execute(db)).rows,
    });
    const kept = await read();
    expect(kept.hours.length).toBeGreaterThan(0);
    expect(kept.crossings.length).toBeGreaterThan(0);
    expect(kept.days.length).toBeGreaterThan(0);
    // The owner-level rollups (0692), kept by the writes, are the sums of billing_hours.
    expect(kept.ownerHours.length).toBeGreaterThan(0);
    await sql`delete from billing_owner_hours`.execute(db);
    await sql`delete from billing_owner_days`.execute(db);
    await backfillBillingOwners(db as unknown as Kysely<unknown>);
    expect(await read()).toEqual(kept);
    await sql`delete from billing_hours`.execute(db);
    const emptied = await read();
    expect([emptied.days, emptied.ownerHours, emptied.ownerDays]).toEqual([[], [], []]);
    await sql`delete from billing_crossings`.execute(db);
    await backfillBillingHours(db as unknown as Kysely<unknown>);
    expect(await read()).toEqual(kept);
  });

  // PostgreSQL only (PGlite has one connection): two transactions end conversations of one owner,
  // the first over two hours, the second in the later hour in between. Both lock the owner's day
  // row before an hour's (0692), so the second waits for the first instead of holding the hour
  // the first needs next: with the hour locked first this deadlocked (PostgreSQL aborts one).
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    "lets two transactions end one owner's conversations at once without a deadlock",
    async () => {
      const db = server.ctx.db;
      const owner = await createCustomer(server);
      const h = T0 + 10 * HOUR;
      const ended = (avatar: string, from: number) => ({
        ...record(owner.id, avatar, avatar, from),
        last_seen_at: new Date(from + 20 * MIN),
        ended_at: new Date(from + 20 * MIN),
        end_reason: 'bye',
      });
      let firstDone!: () => void;
      const firstWritten = new Promise<void>((resolve) => (firstDone = resolve));
      let goOn!: () => void;
      const secondWaiting = new Promise<void>((resolve) => (goOn = resolve));
      const first = db.transaction().execute(async (trx) => {
        await trx.insertInto('conversations').values(ended('av-a', h)).execute();
        firstDone();
        await secondWaiting;
        await trx
          .insertInto('conversations')
          .values(ended('av-a', h + HOUR))
          .execute();
      });
      await firstWritten;
      const second = db.transaction().execute(async (trx) => {
        await trx
          .insertInto('conversations')
          .values(ended('av-b', h + HOUR))
          .execute();
      });
      // The second transaction waits for a lock the first holds.
      for (let i = 0; i < 200; i++) {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_locks where not granted`.execute(db);
        if (rows[0]!.n > 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      goOn();
      await expect(Promise.all([first, second])).resolves.toBeDefined();
      const days = await sql<{
        starts: number;
        us: string;
      }>`select starts, us from billing_owner_days where owner_id = ${owner.id}`.execute(db);
      expect(days.rows.map((r) => [Number(r.starts), Number(r.us)])).toEqual([[3, 3 * 20 * MIN * 1000]]);
    },
  );

  it('lets an account go with its conversations and rollups', async () => {
    const carol = await createCustomer(server, 'carol');
    await seed(carol, random(5), 20);
    await server.ctx.db.deleteFrom('users').where('id', '=', carol.id).execute();
    const left = await sql<{ n: number }>`
      select (select count(*) from billing_hours where owner_id = ${carol.id})
           + (select count(*) from billing_owner_hours where owner_id = ${carol.id})
           + (select count(*) from billing_owner_days where owner_id = ${carol.id}) as n`.execute(server.ctx.db);
    expect(Number(left.rows[0]!.n)).toBe(0);
  });
});

// Migrations 0682 and 0683: the page found by walking every (avatar, name) pair in the report's order, or
// by the sort when the walk is not chosen or did not find the whole page. Both must give the
// reference's answer; the route's choice is checked to take each way on data made for it.
describe('billing report page by the names walk and by the sort', () => {
  /** The route's answer computed by usagePage with the walk forced (cap), or sorting (0). */
  async function direct(owner: TestAccount, start: number, end: number, limit: number, offset: number, cap: number | null) {
    const page = await usagePage(server.ctx.db, owner.id, new Date(start), new Date(end), limit, offset, cap);
    const billingData = page.rows;
    const answer = {
      billingData,
      cummulativeData: {
        avatarName: 'Total',
        avatarId: '',
        totalCallDuration: roundMinutes(page.totalMinutes),
        totalCallCount: page.totalCalls,
      },
      nextOffset: page.more ? offset + billingData.length : null,
    };
    return { answer, walked: page.walked };
  }

  /** Every way must answer as the reference; returns whether the function's own choice walked. */
  async function everyWay(owner: TestAccount, start: number, end: number, limit: number, offset: number, smallCap: number) {
    const want = await reference(server.ctx.db, owner.id, start, end, limit, offset);
    const label = `range ${start}..${end} limit ${limit} offset ${offset}`;
    const walk = await direct(owner, start, end, limit, offset, 1_000_000);
    expect(walk.answer, `walk, ${label}`).toEqual(want);
    if (start < end) expect(walk.walked, `walk, ${label}`).toBe(true);
    const sort = await direct(owner, start, end, limit, offset, 0);
    expect(sort.answer, `sort, ${label}`).toEqual(want);
    expect(sort.walked).toBe(false);
    const small = await direct(owner, start, end, limit, offset, smallCap);
    expect(small.answer, `walk of ${smallCap} candidates, ${label}`).toEqual(want);
    const chosen = await direct(owner, start, end, limit, offset, null);
    expect(chosen.answer, `chosen, ${label}`).toEqual(want);
    expect(await report(owner, start, end, limit, offset), label).toEqual(want);
    return { small: small.walked, chosen: chosen.walked };
  }

  it('answers as the reference by walking, by sorting and after a walk too short, for ranges of every shape', async () => {
    const rnd = random(11);
    const smallWalks = { walked: 0, sorted: 0 };
    for (const [start, end] of ranges(rnd)) {
      for (const [limit, offset] of [
        [200, 0],
        [3, Math.floor(rnd() * 12)],
      ] as const) {
        const { small } = await everyWay(alice, start, end, limit, offset, 1 + Math.floor(rnd() * 40));
        if (start < end) smallWalks[small ? 'walked' : 'sorted']++;
      }
    }
    // alice's avatars carry many names each: a short walk sometimes finds the page, sometimes not.
    expect(smallWalks.walked).toBeGreaterThan(0);
    expect(smallWalks.sorted).toBeGreaterThan(0);
  });

  it('names an avatar after its latest conversation renamed, for ranges read by whole days (migration 0694)', async () => {
    const erin = await createCustomer(server, 'erin');
    const db = server.ctx.db;
    const at = T0 + 24 * HOUR + 5 * HOUR;
    const ended = (name: string, id: string) => ({
      ...record(erin.id, 'e-1', name, at),
      id,
      last_seen_at: new Date(at + MIN),
      ended_at: new Date(at + MIN),
      end_reason: 'bye',
    });
    // Two conversations at one instant: the greater id names the avatar.
    await db
      .insertInto('conversations')
      .values([ended('Twin A', 'e-conv-1'), ended('Twin B', 'e-conv-2')])
      .execute();
    await db.updateTable('conversations').set({ avatar_name: 'Renamed' }).where('id', '=', 'e-conv-2').execute();
    const day = await sql<{ latest_name: string }>`select latest_name from billing_days where owner_id = ${erin.id}`.execute(db);
    expect(day.rows.map((r) => r.latest_name)).toEqual(['Renamed']);
    for (const [start, end] of [
      [T0, T0 + SPAN],
      [T0 + 24 * HOUR, T0 + 2 * 24 * HOUR],
      [T0 + 24 * HOUR + 5 * HOUR, T0 + 24 * HOUR + 6 * HOUR],
    ] as const)
      expect((await everyWay(erin, start, end, 200, 0, 5)).chosen).toBe(false);
  });

  it('walks when the range has many avatars, sorts after a walk through stale names, follows renames', async () => {
    const dave = await createCustomer(server, 'dave');
    const db = server.ctx.db;
    const ended = (avatar: string, name: string, from: number, length: number) => ({
      ...record(dave.id, avatar, name, from),
      last_seen_at: new Date(from + length),
      ended_at: new Date(from + length),
      end_reason: 'bye',
    });
    const rows = [];
    for (let i = 0; i < 80; i++) {
      const avatar = `d-${String(i).padStart(2, '0')}`;
      // Day 1: a name that sorts first ("Aold"); day 3: another, in either case; day 4: a third
      // for some avatars, and for others two conversations at one instant (the greater id names).
      rows.push(ended(avatar, `Aold ${i}`, T0 + i * MIN + 17_000, 10 * MIN));
      rows.push(ended(avatar, i % 7 === 0 ? `mid ${i}` : `Mid ${i}`, T0 + 2 * 24 * HOUR + i * MIN, i % 9 === 0 ? 2 * HOUR : 3 * MIN));
      if (i % 5 === 0) rows.push(ended(avatar, `Zlate ${i}`, T0 + 3 * 24 * HOUR + i * 7 * MIN, i % 10 === 0 ? 0 : 25 * MIN));
      if (i % 11 === 0) {
        rows.push(ended(avatar, `Twin A ${i}`, T0 + 3 * 24 * HOUR + 30 * MIN, MIN));
        rows.push(ended(avatar, `Twin B ${i}`, T0 + 3 * 24 * HOUR + 30 * MIN, 2 * MIN));
      }
    }
    await db.insertInto('conversations').values(rows).execute();
    // Two still open, counted up to their last heartbeat.
    for (const i of [3, 4]) {
      const row = record(dave.id, `d-0${i}`, `Open ${i}`, T0 + 3 * 24 * HOUR + 20 * HOUR);
      await startConversation(db, row);
      await touchConversations(db, [row.id], new Date(T0 + 3 * 24 * HOUR + 21 * HOUR + 13_000));
    }
    const whole: [number, number] = [T0 - HOUR, T0 + SPAN + HOUR];
    const check = async () => {
      // Every avatar of the range and a whole page: the walk is chosen and finds it.
      expect((await everyWay(dave, ...whole, 200, 0, 5)).chosen).toBe(true);
      expect((await everyWay(dave, ...whole, 20, 40, 5)).chosen).toBe(true);
      // Day 1 alone: the first candidates are the range's names.
      expect((await everyWay(dave, T0, T0 + 24 * HOUR, 10, 0, 5)).chosen).toBe(true);
      // Days 3 and 4 with a page of 3: the first candidates are 80 stale "Aold" names, more than
      // the walk may read for 3 rows, so the function sorts.
      expect((await everyWay(dave, T0 + 2 * 24 * HOUR, T0 + SPAN, 3, 0, 5)).chosen).toBe(false);
      // Allowed 200 candidates for that page, the walk's first read (the page and 64 more, 0683)
      // holds only stale names; its second read finds the page.
      expect((await everyWay(dave, T0 + 2 * 24 * HOUR, T0 + SPAN, 3, 0, 200)).small).toBe(true);
      // Few avatars in the range: sorted without a walk.
      expect((await everyWay(dave, T0 + 3 * 24 * HOUR, T0 + 3 * 24 * HOUR + 2 * HOUR, 200, 0, 5)).chosen).toBe(false);
      // Ranges with edges inside hours, local days, a deep offset.
      const rnd = random(12);
      for (const [start, end] of ranges(rnd))
        await everyWay(dave, start, end, 1 + Math.floor(rnd() * 30), Math.floor(rnd() * 60), 1 + Math.floor(rnd() * 100));
      await everyWay(dave, ...whole, 5, 78, 5);
      await everyWay(dave, ...whole, 5, 80, 5);
    };
    await check();
    // Renamed by hand, moved to another avatar: the new pairs become candidates, the old ones fail.
    const some = await db.selectFrom('conversations').select('id').where('owner_id', '=', dave.id).orderBy('id').limit(24).execute();
    for (const [i, { id }] of some.entries()) {
      if (i % 2 === 0)
        await db
          .updateTable('conversations')
          .set({ avatar_name: `Renamed ${i}` })
          .where('id', '=', id)
          .execute();
      else
        await db
          .updateTable('conversations')
          .set({ avatar_id: 'd-moved', avatar_name: `Aold moved ${i}` })
          .where('id', '=', id)
          .execute();
    }
    await check();
    const missing = await sql<{ n: number }>`
      select count(*)::int as n from conversations c
       where not exists (select from billing_names b where b.owner_id = c.owner_id and b.avatar_id = c.avatar_id and b.name = c.avatar_name)`.execute(
      db,
    );
    expect(missing.rows[0]!.n).toBe(0);
  });
});
