// Deleting a collection gives its disk space back on PGlite (issue 21, decision 220): PGlite has
// no autovacuum, so without the server's VACUUM the deleted rows stayed in the files for good.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { insertChunks } from './knowledge.repository';
import { flushKnowledgeReclaim } from './knowledge.space';

let server: TestServer;
let alice: TestAccount;

beforeAll(async () => {
  server = await createTestServer();
  alice = await createCustomer(server, 'space');
});

afterAll(async () => {
  await server.close();
});

async function chunkBytes(): Promise<number> {
  const res = await sql<{
    n: number;
  }>`select (pg_total_relation_size('knowledge_chunks') + pg_total_relation_size('knowledge_chunk_terms'))::float8 as n`.execute(
    server.ctx.db,
  );
  return Number(res.rows[0]!.n);
}

describe.skipIf(process.env.TEST_DATABASE_URL)('disk space of deleted knowledge on PGlite', () => {
  it('returns the space of a deleted collection to the file system shortly after the delete', async () => {
    const jwt = (await server.inject({ method: 'GET', url: '/api/token/jwt', token: alice.token })).json().jwtToken as string;
    const kb = { appKey: null, headers: { authorization: `Bearer ${jwt}` } };
    const col = (await server.inject({ method: 'POST', url: '/kb/v1/collections', payload: { name: 'To delete' }, ...kb })).json() as {
      id: string;
    };
    const itemId = randomUUID();
    await server.ctx.db
      .insertInto('knowledge_items')
      .values({ id: itemId, owner_id: alice.id, collection_id: col.id, name: 'Big', kind: 'text', content: '', status: 'ready' })
      .execute();
    const words = Array.from({ length: 600 }, (_, i) => `word${(i * 7919) % 5000}`).join(' ');
    await insertChunks(
      server.ctx.db,
      Array.from({ length: 300 }, (_, ord) => ({
        owner_id: alice.id,
        collection_id: col.id,
        item_id: itemId,
        ord,
        content: `${ord} ${words}`,
      })),
      'english',
    );
    const stored = await chunkBytes();

    const del = await server.inject({ method: 'DELETE', url: `/kb/v1/collections/${col.id}`, ...kb });
    expect(del.statusCode, del.body).toBe(200);
    const deletedOnly = await chunkBytes();
    await flushKnowledgeReclaim(server.ctx);
    const reclaimed = await chunkBytes();

    expect(deletedOnly).toBe(stored);
    expect(reclaimed).toBeLessThan(stored / 4);
  });
});
