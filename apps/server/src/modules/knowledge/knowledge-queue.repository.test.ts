// The queue's claim (decision 411): owners take turns, one owner never holds more than its share
// of a lane, text and documents are separate lanes, and an item held by a process that stopped
// heartbeating is taken over at once (counted as a crash), while a live holder keeps its item.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { newId } from '../../lib/tokens';
import { touchProcess } from '../../runtime/repositories/runtime-processes.repository';
import { claimNextItem, type ClaimOptions } from './knowledge-queue.repository';

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

const HOUR = 3_600_000;

async function owner(prefix: string): Promise<{ ownerId: string; collectionId: string }> {
  const account = await createCustomer(server, prefix);
  const collectionId = newId();
  const at = new Date();
  await server.ctx.db
    .insertInto('knowledge_collections')
    .values({ id: collectionId, owner_id: account.id, name: prefix, language: 'en', index_version: 1, created_at: at, updated_at: at })
    .execute();
  return { ownerId: account.id, collectionId };
}

/** Queued items, the first the oldest; `kind` file stands for any document. */
async function queue(o: { ownerId: string; collectionId: string }, n: number, kind: 'text' | 'file', from: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = newId();
    const at = new Date(from + i * 1000);
    await server.ctx.db
      .insertInto('knowledge_items')
      .values({
        id,
        owner_id: o.ownerId,
        collection_id: o.collectionId,
        name: `${kind} ${i}`,
        kind,
        content: kind === 'text' ? 'Some text.' : null,
        url: null,
        file_id: null,
        file_name: null,
        file_type: null,
        fail_reason: null,
        locked_until: null,
        processed_at: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    ids.push(id);
  }
  return ids;
}

const options = (o: Partial<ClaimOptions>): ClaimOptions => ({
  lane: 'documents',
  processId: 'process-one',
  perOwner: 1,
  now: new Date(),
  leaseUntil: new Date(Date.now() + HOUR),
  deadAfterMs: 6_000,
  ...o,
});

async function finish(id: string) {
  await server.ctx.db.updateTable('knowledge_items').set({ status: 'ready', locked_until: null }).where('id', '=', id).execute();
}

describe('the ingestion queue', () => {
  it('gives the next slot to the owner served least recently, never a second slot to an owner at its share', async () => {
    const start = Date.now() - 10 * HOUR;
    const a = await owner('queue-a');
    const c = await owner('queue-c');
    const b = await owner('queue-b');
    const aItems = await queue(a, 3, 'file', start);
    const cItems = await queue(c, 3, 'file', start + 100_000);
    const bItems = await queue(b, 1, 'file', start + 200_000);
    const text = await queue(a, 1, 'text', start + 300_000);

    const first = await claimNextItem(server.ctx.db, options({ now: new Date(Date.now() - 2000) }));
    expect(first?.id).toBe(aItems[0]);
    // A holds one of its share of one: C, never A again.
    const second = await claimNextItem(server.ctx.db, options({ now: new Date(Date.now() - 1000) }));
    expect(second?.id).toBe(cItems[0]);
    await finish(first!.id);
    // A's next item is older than B's, but B was never served: B goes first.
    expect((await claimNextItem(server.ctx.db, options({})))?.id).toBe(bItems[0]);
    await finish(second!.id);
    await finish(bItems[0]!);
    // A was served before C: A's turn.
    expect((await claimNextItem(server.ctx.db, options({ now: new Date(Date.now() + 1000) })))?.id).toBe(aItems[1]);
    const row = await server.ctx.db.selectFrom('knowledge_items').selectAll().where('id', '=', aItems[1]!).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'processing', process_id: 'process-one', attempts: 1, crashes: 0 });
    // The text lane is apart: A's text is claimed although A holds a document.
    expect((await claimNextItem(server.ctx.db, options({ lane: 'text' })))?.id).toBe(text[0]);
  });

  it('takes over an item of a process that stopped heartbeating at once, not one of a live process', async () => {
    // The queue is every owner's: the items of the test above are done first.
    await server.ctx.db.updateTable('knowledge_items').set({ status: 'ready' }).where('status', 'in', ['queued', 'processing']).execute();
    const o = await owner('queue-takeover');
    const [item] = await queue(o, 1, 'file', Date.now() - HOUR);
    const dbNow = new Date();
    await touchProcess(server.ctx.db, 'process-live', 'host', dbNow);
    const claimed = await claimNextItem(server.ctx.db, options({ processId: 'process-live' }));
    expect(claimed?.id).toBe(item);
    // Its lease runs for an hour; another process may not take it while its holder is alive.
    expect(await claimNextItem(server.ctx.db, options({ processId: 'process-other' }))).toBeUndefined();
    // The holder's last heartbeat is now a minute old: dead.
    await server.ctx.db
      .updateTable('runtime_processes')
      .set({ seen_at: new Date(dbNow.getTime() - 60_000) })
      .where('id', '=', 'process-live')
      .execute();
    const taken = await claimNextItem(server.ctx.db, options({ processId: 'process-other' }));
    expect(taken).toMatchObject({ id: item, process_id: 'process-other', attempts: 2, crashes: 1 });
  });
});
