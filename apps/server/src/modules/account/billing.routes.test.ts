import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { newId } from '../../lib/tokens';
import { endConversation, startConversation } from '../conversations/conversations.repository';
import { minutesUsed } from './billing.repository';
import { monthOf, roundMinutes, toMinutes } from './usage';

let server: TestServer;
let alice: TestAccount;
let bob: TestAccount;

beforeAll(async () => {
  server = await createTestServer();
  alice = await createCustomer(server, 'alice');
  bob = await createCustomer(server, 'bob');
});
afterAll(async () => {
  await server.close();
});

const MIN = 60_000;
const S = Date.UTC(2025, 0, 10);
const E = Date.UTC(2025, 0, 11);

/** Writes a conversation the way the runtime does: start, then end (unless still open). */
async function record(owner: string, avatar: { id: string; name: string }, from: number, to: number | null, lastSeen?: number) {
  const id = newId();
  await startConversation(server.ctx.db, {
    id,
    owner_id: owner,
    avatar_id: avatar.id,
    avatar_name: avatar.name,
    avatar_type: '2d',
    user_id: `visitor-${id.slice(0, 6)}`,
    user_name: 'Visitor',
    started_at: new Date(from),
    last_seen_at: new Date(lastSeen ?? from),
  });
  if (to !== null) await endConversation(server.ctx.db, id, new Date(to), 'bye');
}

function stats(token: string, start: number | string, end: number | string) {
  return server.inject({ method: 'GET', url: `/api/account_stats?startDate=${start}&endDate=${end}`, token });
}

describe('billing arithmetic', () => {
  const X = { id: 'avatar-x', name: 'Alpha' };
  const Y = { id: 'avatar-y', name: 'Beta' };
  const Z = { id: 'avatar-z', name: 'Gone Bot' }; // deleted: nothing but its conversations remains

  beforeAll(async () => {
    await record(alice.id, X, S + 60 * MIN, S + 70 * MIN); // inside: 10
    await record(alice.id, X, S - 30 * MIN, S + 15 * MIN); // straddles the start: 15
    await record(alice.id, { ...X, name: 'Alpha renamed' }, S + 300 * MIN, S + 301.5 * MIN); // inside: 1.5, newer name
    await record(alice.id, X, S - 10 * MIN, S); // ends exactly at the start: not in range
    await record(alice.id, X, E, E + 5 * MIN); // starts exactly at the end: not in range
    await record(alice.id, Y, E - 20 * MIN, E + 40 * MIN); // straddles the end: 20
    await record(alice.id, Y, S - 60 * MIN, E + 60 * MIN); // covers the whole range: 1440
    await record(alice.id, Y, S + 180 * MIN, null, S + 187 * MIN); // still open, last heartbeat 7 min in
    await record(alice.id, Z, S + 120 * MIN, S + 120 * MIN); // zero-length inside: a call of 0 minutes
    await record(alice.id, Z, S, S); // zero-length at the start: included
    await record(alice.id, Z, E, E); // zero-length at the end: excluded
    await record(alice.id, X, S - 2 * 24 * 60 * MIN, S - 24 * 60 * MIN); // the day before: not in range
    await record(bob.id, X, S + 60 * MIN, S + 90 * MIN); // another account
  });

  it('clips durations to the range, counts overlapping calls per avatar and sums a total row', async () => {
    const res = await stats(alice.token, S, E);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      billingData: [
        { avatarName: 'Alpha renamed', avatarId: 'avatar-x', totalCallDuration: 26.5, totalCallCount: 3 },
        { avatarName: 'Beta', avatarId: 'avatar-y', totalCallDuration: 1467, totalCallCount: 3 },
        { avatarName: 'Gone Bot', avatarId: 'avatar-z', totalCallDuration: 0, totalCallCount: 2 },
      ],
      cummulativeData: { avatarName: 'Total', avatarId: '', totalCallDuration: 1493.5, totalCallCount: 8 },
      nextOffset: null,
    });
  });

  it('pages the rows by name while the total row covers every page', async () => {
    const first = await server.inject({ method: 'GET', url: `/api/account_stats?startDate=${S}&endDate=${E}&limit=2`, token: alice.token });
    expect(first.json()).toMatchObject({
      billingData: [{ avatarName: 'Alpha renamed' }, { avatarName: 'Beta' }],
      cummulativeData: { totalCallDuration: 1493.5, totalCallCount: 8 },
      nextOffset: 2,
    });
    const second = await server.inject({
      method: 'GET',
      url: `/api/account_stats?startDate=${S}&endDate=${E}&limit=2&offset=2`,
      token: alice.token,
    });
    expect(second.json()).toMatchObject({ billingData: [{ avatarName: 'Gone Bot' }], nextOffset: null });
    const past = await server.inject({
      method: 'GET',
      url: `/api/account_stats?startDate=${S}&endDate=${E}&offset=50`,
      token: alice.token,
    });
    expect(past.json()).toMatchObject({ billingData: [], cummulativeData: { totalCallDuration: 1493.5 }, nextOffset: null });
    const bad = await server.inject({ method: 'GET', url: `/api/account_stats?startDate=${S}&endDate=${E}&limit=0`, token: alice.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual(['limit must be at least 1']);
  });

  it('splits a straddling conversation between adjacent ranges without losing or doubling minutes', async () => {
    const mid = S + 12 * 60 * MIN;
    const a = (await stats(alice.token, S, mid)).json();
    const b = (await stats(alice.token, mid, E)).json();
    const whole = (await stats(alice.token, S, E)).json();
    const sum = Math.round((a.cummulativeData.totalCallDuration + b.cummulativeData.totalCallDuration) * 100) / 100;
    expect(sum).toBe(whole.cummulativeData.totalCallDuration);
  });

  it('returns nothing for a zero-length range, even inside a conversation', async () => {
    const res = await stats(alice.token, S + 60 * MIN, S + 60 * MIN);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      billingData: [],
      cummulativeData: { avatarName: 'Total', avatarId: '', totalCallDuration: 0, totalCallCount: 0 },
      nextOffset: null,
    });
  });

  it('reports only the signed-in account', async () => {
    const res = await stats(bob.token, S, E);
    expect(res.json().billingData).toEqual([{ avatarName: 'Alpha', avatarId: 'avatar-x', totalCallDuration: 30, totalCallCount: 1 }]);
  });

  it('rounds each row to two decimals and the total row once, from the exact total the plan counts', async () => {
    const carol = await createCustomer(server, 'carol');
    const T = Date.UTC(2024, 5, 1);
    // Three calls of 20 s on three avatars: each row 0.33; the total 1, not 0.99 (decision 500's
    // amendment "the total row as the exact total"), the plan's minutes for the same range.
    for (const [i, id] of ['a', 'b', 'c'].entries()) await record(carol.id, { id, name: `Bot ${i}` }, T, T + 20_000);
    const res = (await stats(carol.token, T, T + MIN)).json();
    expect(res.billingData.map((r: { totalCallDuration: number }) => r.totalCallDuration)).toEqual([0.33, 0.33, 0.33]);
    expect(res.cummulativeData).toEqual({ avatarName: 'Total', avatarId: '', totalCallDuration: 1, totalCallCount: 3 });
    expect(roundMinutes(await minutesUsed(server.ctx.db, carol.id, new Date(T), new Date(T + MIN)))).toBe(1);
    // The account screen's usage this month says the same of the same three calls.
    const dan = await createCustomer(server, 'dan');
    const { start, end } = monthOf(server.ctx.now());
    const first = start.getTime();
    for (const [i, id] of ['a', 'b', 'c'].entries()) await record(dan.id, { id, name: `Bot ${i}` }, first, first + 20_000);
    const month = (await stats(dan.token, first, end.getTime())).json();
    expect(month.cummulativeData.totalCallDuration).toBe(1);
    const info = await server.inject({ method: 'GET', url: '/api/account_info', token: dan.token });
    expect(info.json()).toMatchObject({ accountDetails: { usage: { minutes: { used: 1 } } } });
  });
});

describe('billing query validation', () => {
  it('says which date is missing or malformed', async () => {
    const none = await server.inject({ method: 'GET', url: '/api/account_stats', token: alice.token });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ status: 'ERROR', code: 7 });
    expect(none.json().errors).toEqual(expect.arrayContaining(['Start date is required', 'End date is required']));

    const bad = await stats(alice.token, 'yesterday', '2025-01-01');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([
      'Start date must be a time in milliseconds since 1 January 1970 (UTC)',
      'End date must be a time in milliseconds since 1 January 1970 (UTC)',
    ]);

    const negative = await stats(alice.token, -5, 10);
    expect(negative.statusCode).toBe(400);
    const huge = await stats(alice.token, 0, '9999999999999999');
    expect(huge.statusCode).toBe(400);
  });

  it('refuses a start after the end with the screen message', async () => {
    const res = await stats(alice.token, E, S);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual(['Start date cannot be greater than end date.']);
  });

  it('needs a session', async () => {
    const res = await server.inject({ method: 'GET', url: `/api/account_stats?startDate=${S}&endDate=${E}` });
    expect(res.statusCode).toBe(401);
  });

  it('never answers a 5xx to arbitrary query strings', async () => {
    const value = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.integer().map(String),
      fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map(String),
      fc.double().map(String),
      fc.constantFrom('', ' ', '1e3', '0x10', 'NaN', 'Infinity', '00000000000000001', '%00', '[]'),
    );
    await fc.assert(
      fc.asyncProperty(fc.option(value, { nil: undefined }), fc.option(value, { nil: undefined }), async (a, b) => {
        const q = [a !== undefined ? `startDate=${encodeURIComponent(a)}` : '', b !== undefined ? `endDate=${encodeURIComponent(b)}` : '']
          .filter(Boolean)
          .join('&');
        const res = await server.inject({ method: 'GET', url: `/api/account_stats?${q}`, token: alice.token });
        expect(res.statusCode).toBeLessThan(500);
        if (res.statusCode === 400) {
          expect(res.json().code).toBe(7);
          expect(res.json().errors.length).toBeGreaterThan(0);
        } else expect(res.statusCode).toBe(200);
      }),
      { numRuns: 150 },
    );
  });
});

describe('month and minutes helpers', () => {
  it('takes the calendar month in UTC', () => {
    const { start, end } = monthOf(new Date('2024-02-29T23:59:59.999Z'));
    expect(start.toISOString()).toBe('2024-02-01T00:00:00.000Z');
    expect(end.toISOString()).toBe('2024-03-01T00:00:00.000Z');
    expect(monthOf(new Date('2024-12-31T12:00:00Z')).end.toISOString()).toBe('2025-01-01T00:00:00.000Z');
  });

  it('rounds minutes to two decimals', () => {
    expect(toMinutes(90_000)).toBe(1.5);
    expect(toMinutes(20_000)).toBe(0.33);
    expect(toMinutes(0)).toBe(0);
  });
});
