// Vectors back-filled for items stored before an embedding provider was configured (decision
// 409): a server without EMBEDDING_BASE_URL ingests, then servers with it on the same database
// give the old chunks vectors in bounded, resumable steps, one process per collection at a time.
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddings } from '../../../../../e2e/support/stand-ins/embeddings';
import { createCustomer } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { BACKFILL_RETRY_MS, backfillNext } from './knowledge.backfill';
import { kbClient } from '../../../test/knowledge-requests';
import { startKnowledgeWorker } from './knowledge.worker';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function server(env: Record<string, string>, sameDatabaseAs?: TestServer): Promise<TestServer> {
  const s = await createTestServer(env, sameDatabaseAs ? { sameDatabaseAs } : {});
  cleanups.push(() => s.close());
  return s;
}

// pgvector exists on PGlite, not on the Debian PostgreSQL of CI (migration 0401).
describe('vector back-fill', () => {
  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    'gives items stored before an embedding provider was configured vectors in the background, resumably and once, and then finds them by meaning',
    async () => {
      const embeddings = await startEmbeddings();
      cleanups.push(() => embeddings.close());
      const allow = { OUTBOUND_ALLOW: `127.0.0.1:${embeddings.port}` };
      const provider = {
        ...allow,
        EMBEDDING_BASE_URL: embeddings.url,
        EMBEDDING_API_KEY: 'test-embedding-key',
        EMBEDDING_MODEL: 'fake-64',
      };

      // Before: no provider. Two items, full-text only.
      const before = await server(allow);
      const beforeWorker = startKnowledgeWorker(before.ctx, { pollMs: 60_000 });
      const account = await createCustomer(before);
      const kbBefore = await kbClient(before, account);
      const col = (await kbBefore('POST', '/kb/v1/collections', { name: 'Old items', language: 'en' })).json().id as string;
      await kbBefore('POST', `/kb/v1/collections/${col}/items`, {
        name: 'Refunds',
        knowledge_type: { text: { content: 'We refund your money within thirty days.' } },
      });
      await kbBefore('POST', `/kb/v1/collections/${col}/items`, {
        name: 'Workshop',
        knowledge_type: { text: { content: 'Our workshop can repair any bicycle.' } },
      });
      await beforeWorker.drain();
      await beforeWorker.stop();
      const vectors = () => before.ctx.db.selectFrom('knowledge_embeddings').select(['chunk_id', 'model']).execute();
      expect(await vectors()).toEqual([]);

      // After: two processes with the provider on the same database. The collection says the
      // back-fill is under way; the old item is not yet found by meaning.
      const a = await server(provider, before);
      const b = await server(provider, before);
      const kb = await kbClient(a, account);
      const info = async () =>
        ((await kb('GET', '/kb/v1/collections')).json() as { id: string; search_mode: string; vectors_backfilling: boolean }[]).find(
          (c) => c.id === col,
        );
      expect(await info()).toMatchObject({ search_mode: 'hybrid', vectors_backfilling: true });
      const meaning = async () =>
        (await kb('POST', '/kb/v1/search', { collection_ids: [col], query: 'reimbursement cash', top_k: 1 })).json() as {
          item_name: string;
          match: string;
        }[];
      expect(await meaning()).toEqual([]);
      const searchCalls = embeddings.calls; // the query's own vector

      // One bounded step at a time, the collection held by one process: the other does nothing.
      const steps = await Promise.all([backfillNext(a.ctx, { batch: 1 }), backfillNext(b.ctx, { batch: 1 })]);
      expect(steps.filter(Boolean)).toHaveLength(1);
      expect(await vectors()).toHaveLength(1);
      expect(embeddings.calls - searchCalls).toBe(1);

      // The worker resumes after the first chunk: each chunk embedded once, then complete.
      const worker = startKnowledgeWorker(b.ctx, { pollMs: 60_000 });
      cleanups.push(() => worker.stop());
      await worker.drain();
      expect((await vectors()).map((v) => v.model)).toEqual(['fake-64', 'fake-64']);
      expect(embeddings.calls - searchCalls).toBe(2);
      expect(await info()).toMatchObject({ vectors_backfilling: false });
      expect((await meaning())[0]).toMatchObject({ item_name: 'Refunds', match: 'vector' });
    },
  );

  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    'waits after a failing provider instead of looping, and tries again once the wait is over',
    async () => {
      const embeddings = await startEmbeddings();
      cleanups.push(() => embeddings.close());
      const allow = { OUTBOUND_ALLOW: `127.0.0.1:${embeddings.port}` };
      const before = await server(allow);
      const w = startKnowledgeWorker(before.ctx, { pollMs: 60_000 });
      const kb = await kbClient(before, await createCustomer(before));
      const col = (await kb('POST', '/kb/v1/collections', { name: 'Old', language: 'en' })).json().id as string;
      await kb('POST', `/kb/v1/collections/${col}/items`, {
        name: 'Hours',
        knowledge_type: { text: { content: 'Open from nine to five.' } },
      });
      await w.drain();
      await w.stop();

      // A wrong key: the provider refuses; the step fails and the collection waits.
      const wrong = await server(
        { ...allow, EMBEDDING_BASE_URL: embeddings.url, EMBEDDING_API_KEY: 'wrong', EMBEDDING_MODEL: 'fake-64' },
        before,
      );
      expect(await backfillNext(wrong.ctx)).toBe(false);
      const right = await server(
        { ...allow, EMBEDDING_BASE_URL: embeddings.url, EMBEDDING_API_KEY: 'test-embedding-key', EMBEDDING_MODEL: 'fake-64' },
        before,
      );
      expect(await backfillNext(right.ctx)).toBe(false);
      expect(embeddings.calls).toBe(0);

      const later = Date.now() + BACKFILL_RETRY_MS + 1000;
      right.ctx.now = () => new Date(later);
      expect(await backfillNext(right.ctx)).toBe(true);
      expect(embeddings.calls).toBe(1);
      expect(await before.ctx.db.selectFrom('knowledge_embeddings').select('chunk_id').execute()).toHaveLength(1);
    },
  );
});
