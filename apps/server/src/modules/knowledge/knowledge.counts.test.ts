import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { kbClient, type Kb } from '../../../test/knowledge-requests';
import { startKnowledgeWorker, type KnowledgeWorker } from './knowledge.worker';

let server: TestServer;
let worker: KnowledgeWorker;
let alice: TestAccount;
let asAlice: Kb;

beforeAll(async () => {
  server = await createTestServer();
  worker = startKnowledgeWorker(server.ctx, { pollMs: 60_000 });
  alice = await createCustomer(server, 'alice');
  asAlice = await kbClient(server, alice);
});

afterAll(async () => {
  await worker.stop();
  await server.close();
});

async function counts(collectionId: string): Promise<Record<string, number>> {
  const rows = await server.ctx.db
    .selectFrom('knowledge_lexeme_counts')
    .select(['ts_config', 'lexeme', 'df', 'owner_id'])
    .where('collection_id', '=', collectionId)
    .execute();
  expect(rows.every((r) => r.owner_id === alice.id)).toBe(true);
  return Object.fromEntries(
    rows.filter((r) => ['', 'bike', 'bikes', 'helmet'].includes(r.lexeme)).map((r) => [`${r.ts_config}:${r.lexeme}`, r.df]),
  );
}

describe('document frequencies for ranking', () => {
  it('counts the chunks of each word per collection as items are added, re-indexed and deleted', async () => {
    const id = ((await asAlice('POST', '/kb/v1/collections', { name: 'Counts', language: 'en' })).json() as { id: string }).id;
    const add = async (name: string, content: string) =>
      ((await asAlice('POST', `/kb/v1/collections/${id}/items`, { name, knowledge_type: { text: { content } } })).json() as { id: string })
        .id;
    const rental = await add('Rental', 'We rent bikes by the day.');
    await add('Helmets', 'Every bike rental includes a helmet.');
    await worker.drain();
    // Item names count as text of their chunks; English stems "bikes" to "bike".
    expect(await counts(id)).toEqual({ 'english:': 2, 'english:bike': 2, 'english:helmet': 1 });

    // A new language rewrites the chunks: the counts move to the new configuration.
    expect((await asAlice('PUT', `/kb/v1/collections/${id}`, { name: 'Counts', language: 'none' })).statusCode).toBe(200);
    await worker.drain();
    expect(await counts(id)).toEqual({ 'simple:': 2, 'simple:bike': 1, 'simple:bikes': 1, 'simple:helmet': 1 });

    expect((await asAlice('DELETE', `/kb/v1/items/${rental}`)).statusCode).toBe(200);
    expect(await counts(id)).toEqual({ 'simple:': 1, 'simple:bike': 1, 'simple:helmet': 1 });
    expect((await asAlice('DELETE', `/kb/v1/collections/${id}`)).statusCode).toBe(200);
    expect(await counts(id)).toEqual({});
  });
});
