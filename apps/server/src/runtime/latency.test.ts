// The turn timings' writer: a flush resolves once every timing added so far is in the table, the
// batch its own timer had started included (a CI run on PostgreSQL saw such a batch land after a
// flush that had found nothing pending). Real database (PGlite, or PostgreSQL: the first test fails
// there without the fix; PGlite's one connection runs the count after the insert anyway).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../test/harness';
import { TurnRecorder, type TurnTiming } from './latency';

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
});

afterAll(async () => {
  await server.close();
});

const timing = (conversationId: string): TurnTiming => ({
  conversationId,
  ownerId: randomUUID(),
  avatarId: randomUUID(),
  at: new Date(),
  firstDeltaMs: 12,
  engineMs: 40,
  retrievalMs: 0,
  interrupted: false,
});

const stored = async (conversationId: string) =>
  (await server.ctx.db.selectFrom('conversation_turns').select('id').where('conversation_id', '=', conversationId).execute()).length;

it('waits for the batch its timer is writing when a flush finds nothing pending', async () => {
  const errors: unknown[] = [];
  const recorder = new TurnRecorder(server.ctx.db, (err) => errors.push(err), 1);
  for (let round = 0; round < 5; round++) {
    const id = randomUUID();
    recorder.add(timing(id));
    recorder.add(timing(id));
    // The recorder's timer (1 ms, set first) fires before this one: its batch is under way.
    await new Promise((resolve) => setTimeout(resolve, 1));
    await recorder.flush();
    expect(await stored(id)).toBe(2);
  }
  expect(errors).toEqual([]);
});

it('writes what is pending at once, batches one after another', async () => {
  const recorder = new TurnRecorder(server.ctx.db, () => undefined, 60_000);
  const [a, b] = [randomUUID(), randomUUID()];
  recorder.add(timing(a));
  const first = recorder.flush();
  recorder.add(timing(b));
  await recorder.flush();
  expect(await stored(a)).toBe(1);
  expect(await stored(b)).toBe(1);
  await first;
});
