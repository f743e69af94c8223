// The cut-off's coincidence rule and the English prior on document frequencies (issue 38,
// decision 418): a passage sharing a single word with a question whose noun the collection lacks
// is not sent ("Do you repair cars?" to a bike shop), one sharing two of its words is; a word
// PostgreSQL drops as a stop word ("off") gets no synonym ("cancelled") standing in for it; and of two words
// held by as many chunks, the everyday one ("stop") weighs less than the technical one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { kbClient, type Kb } from '../../../test/knowledge-requests';
import { startKnowledgeWorker, type KnowledgeWorker } from './knowledge.worker';

let server: TestServer;
let worker: KnowledgeWorker;
let alice: TestAccount;
let asAlice: Kb;
let id: string;

const ITEMS: [string, string][] = [
  ['Workshop', 'Our mechanics repair bicycles of every brand; a basic service costs 49 euros.'],
  ['Parking', 'Customers park free of charge for one hour in the garage behind the shop.'],
  ['Orders', 'Cancelled orders are refunded within five days.'],
  ['Signals', 'Send a signal to stop it.'],
  ['Separator', 'On Windows the delimiter between the entries of a list is a semicolon, on POSIX a colon.'],
  // A collection of some size: in one of five items any word is rare enough to fall under the floor.
  ...Array.from({ length: 40 }, (_, i): [string, string] => [
    `Report ${i}`,
    `The harbour report number ${i} was filed on time by the clerk.`,
  ]),
];

beforeAll(async () => {
  server = await createTestServer();
  worker = startKnowledgeWorker(server.ctx, { pollMs: 60_000 });
  alice = await createCustomer(server, 'alice');
  asAlice = await kbClient(server, alice);
  const res = await asAlice('POST', '/kb/v1/collections', { name: 'Bike shop', language: 'en' });
  expect(res.statusCode, res.body).toBe(200);
  id = res.json().id as string;
  const batch = await asAlice('POST', `/kb/v1/collections/${id}/items/batch`, {
    items: ITEMS.map(([name, content]) => ({ name, knowledge_type: { text: { content } } })),
  });
  expect(batch.statusCode, batch.body).toBe(200);
  await worker.drain();
});

afterAll(async () => {
  await worker.stop();
  await server.close();
});

async function search(query: string) {
  const res = await asAlice('POST', '/kb/v1/search', { collection_ids: [id], query });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { item_name: string }[]).map((h) => h.item_name);
}

describe('coincidental passages', () => {
  it('sends nothing when the only word a passage shares is incidental and the question’s noun is in no chunk', async () => {
    expect(await search('Do you repair cars?')).toEqual([]);
  });

  it('sends a passage that shares two words of a question whose noun is in no chunk', async () => {
    expect((await search('Can I park my car at the shop?'))[0]).toBe('Parking');
  });

  it('gives a word dropped as a stop word ("off") no synonym ("cancelled") to stand in for it', async () => {
    expect(await search('Is it off?')).toEqual([]);
  });

  it('weighs an everyday word below a technical one that as many chunks hold', async () => {
    expect((await search('stop delimiter'))[0]).toBe('Separator');
  });
});
