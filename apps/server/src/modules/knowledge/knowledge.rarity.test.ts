import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_SCORE_THRESHOLD_DEFAULT } from '@parla/shared/schemas/knowledge';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { kbClient, type Kb } from '../../../test/knowledge-requests';
import { relevanceFloor } from './knowledge.cutoff';

let server: TestServer;
let alice: TestAccount;
let asAlice: Kb;

beforeAll(async () => {
  server = await createTestServer();
  alice = await createCustomer(server, 'alice');
  asAlice = await kbClient(server, alice);
});

afterAll(async () => {
  await server.close();
});

const ANSWER = 'saddle warranty: every saddle has a two year warranty; the saddle warranty covers seams';

/** A collection of `size` short chunks: "saddle" and "warranty" each in a tenth of them (never
 *  together), the answer in three; written directly, as bench 4 does, through the same triggers. */
async function collectionOf(size: number, answer = ANSWER): Promise<string> {
  const id = ((await asAlice('POST', '/kb/v1/collections', { name: `Rarity ${size}`, language: 'en' })).json() as { id: string }).id;
  const item = `rarity-${id}`;
  await server.ctx.db
    .insertInto('knowledge_items')
    .values({
      id: item,
      owner_id: alice.id,
      collection_id: id,
      name: 'Notes',
      kind: 'text',
      content: '',
      status: 'ready',
      chunk_count: size,
    })
    .execute();
  await sql`
    insert into knowledge_chunks (owner_id, collection_id, item_id, ord, content, ts_config, tsv)
    select ${alice.id}, ${id}, ${item}, g.i, t.content, 'english', to_tsvector('english', t.content)
    from generate_series(0, ${size - 1}) as g(i), lateral (select case
      when g.i in (5, 15, 25) then ${answer}
      when g.i % 10 = 1 then 'acme warranty w' || g.i
      when g.i % 10 = 3 then 'acme saddle w' || g.i
      else 'acme w' || g.i end as content) t
  `.execute(server.ctx.db);
  return id;
}

describe('rarity of question words', () => {
  it('weighs a question word no chunk holds ("how long …") the same in a small and a large collection, so the answer clears the threshold in both', async () => {
    const question = 'how long is the saddle warranty';
    const scores: number[] = [];
    for (const size of [400, 4000]) {
      const id = await collectionOf(size);
      const res = await asAlice('POST', '/kb/v1/search', { collection_ids: [id], query: question });
      expect(res.statusCode, res.body).toBe(200);
      const hits = res.json() as { text: string; score: number }[];
      // The answer first; chunks holding one of its two words may follow (above 40 % of its score, decision 417).
      expect(hits[0]?.text).toBe(ANSWER);
      scores.push(hits[0]!.score);
    }
    expect(scores[0]).toBeGreaterThanOrEqual(relevanceFloor(SEARCH_SCORE_THRESHOLD_DEFAULT, question, ['long', 'saddle', 'warranty']));
    expect(Math.abs(scores[0]! - scores[1]!)).toBeLessThan(0.02);
  });

  it('ranks every match of a rare word although a common word of the question matches more chunks than are ranked', async () => {
    // "acme" in every chunk, once; "lisbon" in a single chunk, once, stored after 4,000 others:
    // neither the first matches in index order nor a word's repeated-occurrence list holds it.
    const id = await collectionOf(4000);
    const late = `lisbon-${id}`;
    await server.ctx.db
      .insertInto('knowledge_items')
      .values({
        id: late,
        owner_id: alice.id,
        collection_id: id,
        name: 'Branches',
        kind: 'text',
        content: '',
        status: 'ready',
        chunk_count: 1,
      })
      .execute();
    const branch = 'acme opens a branch in lisbon next spring';
    await sql`insert into knowledge_chunks (owner_id, collection_id, item_id, ord, content, ts_config, tsv)
      values (${alice.id}, ${id}, ${late}, 0, ${branch}, 'english', to_tsvector('english', ${branch}))`.execute(server.ctx.db);
    const res = await asAlice('POST', '/kb/v1/search', { collection_ids: [id], query: 'acme lisbon' });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { text: string }[])[0]?.text).toBe(branch);
  });
});
