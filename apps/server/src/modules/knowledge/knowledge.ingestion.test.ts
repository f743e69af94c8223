// Ingestion beyond one request: hybrid search with an embedding provider, and queued work that
// resumes when the server starts again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddings } from '../../../../../e2e/support/stand-ins/embeddings';
import { createCustomer } from '../../../test/accounts';
import { createTestServer, TEST_APP_KEY, TEST_SECRET_KEY } from '../../../test/harness';
import { parseConfig } from '../../config';
import { openDatabase } from '../../db/database';
import { newId } from '../../lib/tokens';
import { startServer } from '../../server';
import { kbClient } from '../../../test/knowledge-requests';
import { INGEST_LEASE_MS, startKnowledgeWorker } from './knowledge.worker';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('hybrid search', () => {
  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))('embeds chunks and finds by meaning what full-text cannot', async () => {
    const embeddings = await startEmbeddings();
    cleanups.push(() => embeddings.close());
    const server = await createTestServer({
      OUTBOUND_ALLOW: `127.0.0.1:${embeddings.port}`,
      EMBEDDING_BASE_URL: embeddings.url,
      EMBEDDING_API_KEY: 'test-embedding-key',
      EMBEDDING_MODEL: 'fake-64',
    });
    const worker = startKnowledgeWorker(server.ctx, { pollMs: 60_000 });
    cleanups.push(async () => {
      await worker.stop();
      await server.close();
    });
    const account = await createCustomer(server);
    const kb = await kbClient(server, account);
    const col = (await kb('POST', '/kb/v1/collections', { name: 'Hybrid', language: 'en' })).json().id as string;
    await kb('POST', `/kb/v1/collections/${col}/items`, {
      name: 'Refunds',
      knowledge_type: { text: { content: 'We refund your money within thirty days.' } },
    });
    await kb('POST', `/kb/v1/collections/${col}/items`, {
      name: 'Workshop',
      knowledge_type: { text: { content: 'Our workshop can repair any bicycle.' } },
    });
    await worker.drain();
    const stored = await server.ctx.db.selectFrom('knowledge_embeddings').select('chunk_id').execute();
    expect(stored).toHaveLength(2);
    // No word in common with the refund text: only the vectors can find it.
    const res = await kb('POST', '/kb/v1/search', { collection_ids: [col], query: 'reimbursement cash', top_k: 1 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()[0]).toMatchObject({ item_name: 'Refunds', match: 'vector' });
    // Both lists agree: the fused answer says so.
    const both = await kb('POST', '/kb/v1/search', { collection_ids: [col], query: 'repair bicycle', top_k: 1 });
    expect(both.json()[0]).toMatchObject({ item_name: 'Workshop', match: 'hybrid' });
  });
});

describe('restart', () => {
  // startServer on PostgreSQL has no per-test schema; PGlite on disk proves the same behaviour.
  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    'resumes queued work and work cut off by a crash when the server starts again',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'parla-restart-'));
      // Removed after the second server closes (cleanups run last first; decision 018).
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      const env = {
        APP_KEY: TEST_APP_KEY,
        SECRET_KEY: TEST_SECRET_KEY,
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
      };
      const first = await startServer(parseConfig(env));
      await first.close();

      // While the server is down: one item queued, one left "processing" by a crashed worker.
      const database = await openDatabase({ dataDir });
      const owner = newId();
      const col = newId();
      const long = new Date(Date.now() - INGEST_LEASE_MS - 1000);
      await database.db
        .insertInto('users')
        .values({ id: owner, email: `${owner}@example.com`, password_hash: 'x', first_name: 'R', last_name: 'S' })
        .execute();
      await database.db.insertInto('knowledge_collections').values({ id: col, owner_id: owner, name: 'C', language: null }).execute();
      const queued = newId();
      const crashed = newId();
      await database.db
        .insertInto('knowledge_items')
        .values([
          { id: queued, owner_id: owner, collection_id: col, name: 'Queued', kind: 'text', content: 'Queued before the restart.' },
          {
            id: crashed,
            owner_id: owner,
            collection_id: col,
            name: 'Crashed',
            kind: 'text',
            content: 'Cut off by a crash.',
            status: 'processing',
            attempts: 1,
            locked_until: long,
          },
        ])
        .execute();
      await database.close();

      const second = await startServer(parseConfig(env));
      cleanups.push(() => second.close());
      const deadline = Date.now() + 20_000;
      let statuses: string[] = [];
      while (Date.now() < deadline) {
        const rows = await second.ctx.db.selectFrom('knowledge_items').select('status').where('collection_id', '=', col).execute();
        statuses = rows.map((r) => r.status);
        if (statuses.every((s) => s === 'ready')) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(statuses).toEqual(['ready', 'ready']);
    },
    // Two starts on a fresh on-disk PGlite (initdb and every migration on the first): 1.5 s and
    // 20.5 s measured at load 11, past the default 30 s with the wait for the items.
    90_000,
  );
});
