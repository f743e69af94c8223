// Chunks are written in short batches (docs/decisions/406): search never shows an item that is
// not ready, an interrupted ingestion resumes after its last written chunk (or starts over when
// the text changed), and one that fails keeps no chunks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { newId } from '../../lib/tokens';
import { chunkText } from './knowledge.chunking';
import { WRITE_MAX_ROWS } from './knowledge.ingest-writer';
import { insertChunks } from './knowledge.repository';
import { kbClient, type Kb } from '../../../test/knowledge-requests';
import { contentHash, INGEST_LEASE_MS, INGEST_MAX_ATTEMPTS, INTERRUPTED, startKnowledgeWorker } from './knowledge.worker';

let server: TestServer;
let account: TestAccount;
let kb: Kb;

beforeAll(async () => {
  server = await createTestServer();
  account = await createCustomer(server, 'batches');
  kb = await kbClient(server, account);
});
afterAll(() => server.close());

/** A long text: every paragraph names the marker, so every chunk matches it. */
function longText(marker: string, paragraphs = 160): string {
  return Array.from(
    { length: paragraphs },
    (_, i) => `Paragraph ${i} about the ${marker} warranty: ${'the frame and the wheels are covered for two years. '.repeat(6)}`,
  ).join('\n\n');
}

async function collection(): Promise<string> {
  return (await kb('POST', '/kb/v1/collections', { name: `C ${newId().slice(0, 6)}`, language: 'en' })).json().id as string;
}

async function search(col: string, query: string) {
  const res = await kb('POST', '/kb/v1/search', { collection_ids: [col], query, top_k: 5 });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { item_id: string }[];
}

/** An item as a crashed worker leaves it: processing, lease lapsed, the first `written` chunks stored. */
async function interrupted(col: string, text: string, written: number, attempts = 1) {
  const id = newId();
  const lapsed = new Date(Date.now() - INGEST_LEASE_MS - 1000);
  await server.ctx.db
    .insertInto('knowledge_items')
    // The worker records the text's hash before it writes chunks (decision 407).
    .values({
      id,
      owner_id: account.id,
      collection_id: col,
      name: 'Interrupted',
      kind: 'text',
      content: text,
      content_hash: contentHash(text),
      status: 'processing',
      attempts,
      locked_until: lapsed,
    })
    .execute();
  const chunks = chunkText(text).slice(0, written);
  await insertChunks(
    server.ctx.db,
    chunks.map((content, ord) => ({ owner_id: account.id, collection_id: col, item_id: id, ord, content })),
    'english',
  );
  return id;
}

const chunksOf = (itemId: string) =>
  server.ctx.db.selectFrom('knowledge_chunks').select(['id', 'ord', 'content']).where('item_id', '=', itemId).orderBy('ord').execute();

describe('batched ingestion', () => {
  it('never shows an item in search before every chunk of it is written', async () => {
    const col = await collection();
    const text = longText('zephyr');
    const expected = chunkText(text).length;
    expect(expected).toBeGreaterThanOrEqual(10);
    const item = (await kb('POST', `/kb/v1/collections/${col}/items`, { name: 'Long', knowledge_type: { text: { content: text } } })).json()
      .id as string;
    const worker = startKnowledgeWorker(server.ctx, { pollMs: 60_000 });
    const draining = worker.drain();
    let done = false;
    void draining.then(() => (done = true));
    let searches = 0;
    let partialSeen = 0;
    while (!done) {
      const hits = await search(col, 'zephyr warranty');
      const after = await server.ctx.db.selectFrom('knowledge_items').select(['status']).where('id', '=', item).executeTakeFirstOrThrow();
      const written = (await chunksOf(item)).length;
      if (after.status !== 'ready' && written > 0 && written < expected) partialSeen++;
      // Hits while the item is still not ready would be a half-ingested item.
      if (after.status !== 'ready') expect(hits).toEqual([]);
      searches++;
    }
    await worker.stop();
    // PostgreSQL writes up to WRITE_MAX_ROWS chunks a batch with no pause, so this item is written
    // in one batch there and no half-written moment exists to search in; the next test plants one.
    if (!process.env.TEST_DATABASE_URL || expected > WRITE_MAX_ROWS) {
      expect(searches).toBeGreaterThan(1);
      expect(partialSeen, 'searches made while the item was half written').toBeGreaterThan(0);
    }
    expect((await search(col, 'zephyr warranty'))[0]?.item_id).toBe(item);
    expect((await chunksOf(item)).map((c) => c.ord)).toEqual([...Array(expected).keys()]);
  }, 120_000);

  it('hides the chunks of an interrupted ingestion and resumes after the last one written', async () => {
    const col = await collection();
    const text = longText('quokka', 60);
    const all = chunkText(text);
    const item = await interrupted(col, text, 7);
    const before = await chunksOf(item);
    expect(await search(col, 'quokka')).toEqual([]);
    const worker = startKnowledgeWorker(server.ctx, { pollMs: 60_000 });
    await worker.drain();
    await worker.stop();
    const row = await server.ctx.db.selectFrom('knowledge_items').selectAll().where('id', '=', item).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'ready', chunk_count: all.length, crashes: 1 });
    const after = await chunksOf(item);
    expect(after.map((c) => c.content)).toEqual(all);
    // The chunks written before the interruption were kept, not written again.
    expect(after.slice(0, 7).map((c) => c.id)).toEqual(before.map((c) => c.id));
    expect((await search(col, 'quokka'))[0]?.item_id).toBe(item);
  }, 60_000);

  it('starts over when the stored chunks are not those of the text, and keeps no chunk when it fails', async () => {
    const col = await collection();
    const changed = await interrupted(col, longText('lynx', 40), 5);
    await server.ctx.db
      .updateTable('knowledge_items')
      .set({ content: longText('ocelot', 40) })
      .where('id', '=', changed)
      .execute();
    const doomed = await interrupted(col, longText('okapi', 40), 5, INGEST_MAX_ATTEMPTS);
    const worker = startKnowledgeWorker(server.ctx, { pollMs: 60_000 });
    await worker.drain();
    await worker.stop();
    expect((await chunksOf(changed)).map((c) => c.content)).toEqual(chunkText(longText('ocelot', 40)));
    expect(await search(col, 'lynx')).toEqual([]);
    const failed = await server.ctx.db.selectFrom('knowledge_items').selectAll().where('id', '=', doomed).executeTakeFirstOrThrow();
    expect(failed).toMatchObject({ status: 'failed', fail_reason: INTERRUPTED });
    expect(await chunksOf(doomed)).toEqual([]);
    expect(await search(col, 'okapi')).toEqual([]);
  }, 60_000);
});
