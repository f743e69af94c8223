// Requests first on PGlite's one connection (decision 222): background work waits while any
// other query waits, and still gets its turn.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { snapshotBlob } from '../../test/pglite-snapshot';
import { openDatabase, type Database } from './database';
import { inBackground, PriorityGate } from './pglite-gate';

let database: Database;

// The gate is PGlite's: the PostgreSQL pass of the suite skips this file.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

beforeAll(async () => {
  if (onPostgres) return;
  const snapshot = inject('pgliteSnapshot');
  database = await openDatabase(snapshot ? { loadDataDir: snapshotBlob(snapshot) } : {});
});

afterAll(async () => {
  await database?.close();
});

const statement = (tag: string, order: string[]) =>
  sql`select 1`.execute(database.db).then(() => {
    order.push(tag);
  });

describe.skipIf(onPostgres)('the PGlite connection gate', () => {
  it('gives the connection to a waiting request before the next statement of background work', async () => {
    const order: string[] = [];
    const work = inBackground(async () => {
      for (let i = 0; i < 5; i++) await statement(`background ${i}`, order);
    });
    // A request arrives while the first background statement runs, and asks twice in a row.
    await new Promise((r) => setImmediate(r));
    await statement('request a', order);
    await statement('request b', order);
    await work;
    const first = order.indexOf('request a');
    expect(order.indexOf('request b')).toBe(first + 1);
    expect(first).toBeLessThanOrEqual(2);
    expect(order.filter((o) => o.startsWith('background'))).toHaveLength(5);
  });

  it('lets a transaction of background work finish before a request takes the connection', async () => {
    const order: string[] = [];
    const work = inBackground(() =>
      database.db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await new Promise((r) => setTimeout(r, 5));
        await sql`select 2`.execute(trx);
        order.push('background transaction');
      }),
    );
    await new Promise((r) => setImmediate(r));
    await statement('request', order);
    await work;
    expect(order).toEqual(['background transaction', 'request']);
  });

  it('serves background work once no request waits, so it is never starved', async () => {
    const gate = new PriorityGate();
    const order: string[] = [];
    const hold = async (tag: string, low: boolean) => {
      const release = await gate.acquire(low);
      order.push(tag);
      await new Promise((r) => setTimeout(r, 1));
      release();
    };
    await Promise.all([hold('request 1', false), hold('background', true), hold('request 2', false)]);
    expect(order).toEqual(['request 1', 'request 2', 'background']);
    const waits = Array.from({ length: 3 }, (_, i) => hold(`background ${i}`, true));
    await Promise.all(waits);
    expect(order.slice(3)).toEqual(['background 0', 'background 1', 'background 2']);
  });

  it('knows whether a request got the connection lately, so background work can pause longer', async () => {
    const gate = new PriorityGate();
    (await gate.acquire(true))();
    expect(gate.requestsWithin(1000)).toBe(false);
    (await gate.acquire(false))();
    expect(gate.requestsWithin(1000)).toBe(true);
  });

  it('tells an observer how long each holder kept the connection', async () => {
    const holds: { ms: number; background: boolean }[] = [];
    database.gate!.observe((ms, background) => holds.push({ ms, background }));
    await inBackground(() => sql`select 1`.execute(database.db));
    await sql`select 1`.execute(database.db);
    database.gate!.observe(undefined);
    expect(holds.map((h) => h.background)).toEqual([true, false]);
    expect(holds.every((h) => h.ms >= 0)).toBe(true);
  });
});
