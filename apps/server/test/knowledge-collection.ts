// Test-only: a text collection built through the knowledge API (a fresh test server, one account,
// the knowledge worker drained), and a search that answers the item names of the passages sent —
// the setup of the ranking tests (knowledge.coincidence/paraphrase/passages tests).
import { expect } from 'vitest';
import { startKnowledgeWorker } from '../src/modules/knowledge/knowledge.worker';
import { createCustomer } from './accounts';
import { createTestServer } from './harness';
import { kbClient } from './knowledge-requests';

export interface TextCollection {
  /** The item names of the passages POST /kb/v1/search sends for the query, best first. */
  search(query: string): Promise<string[]>;
  close(): Promise<void>;
}

/** A collection of text items (`[name, content]`) in `language`, every item ingested. */
export async function textCollection(name: string, items: [string, string][], language = 'en'): Promise<TextCollection> {
  const server = await createTestServer();
  const worker = startKnowledgeWorker(server.ctx, { pollMs: 60_000 });
  const kb = await kbClient(server, await createCustomer(server, 'alice'));
  const res = await kb('POST', '/kb/v1/collections', { name, language });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().id as string;
  const batch = await kb('POST', `/kb/v1/collections/${id}/items/batch`, {
    items: items.map(([item, content]) => ({ name: item, knowledge_type: { text: { content } } })),
  });
  expect(batch.statusCode, batch.body).toBe(200);
  await worker.drain();
  return {
    async search(query) {
      const found = await kb('POST', '/kb/v1/search', { collection_ids: [id], query });
      expect(found.statusCode, found.body).toBe(200);
      return (found.json() as { item_name: string }[]).map((h) => h.item_name);
    },
    async close() {
      await worker.stop();
      await server.close();
    },
  };
}
