import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DUPLICATE_TEXT_MESSAGE,
  DUPLICATE_URL_MESSAGE,
  RESYNC_BUSY,
  RESYNC_URL_ONLY,
  SEARCH_RELATIVE_CUTOFF,
} from '@parla/shared/schemas/knowledge';
import { knowledgeSettings } from '@parla/shared/schemas/avatar';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { startKnowledgeSite, type KnowledgeSite } from '../../../../../e2e/support/stand-ins/knowledge-site';
import { knowledgeBlock, NO_RELEVANT_KNOWLEDGE } from '../../runtime/engines/prompt';
import { avatarHooks } from '../../runtime/avatar-config';
import { OutboundClient } from '../../lib/outbound';
import { detectLanguage } from './knowledge.language';
import { meaningfulWords } from './knowledge.query';
import { kbClient, multipart, type Kb } from '../../../test/knowledge-requests';
import { normalizeKnowledgeUrl } from './knowledge.urls';
import { duplicateContent, startKnowledgeWorker, type KnowledgeWorker } from './knowledge.worker';

let server: TestServer;
let site: KnowledgeSite;
let worker: KnowledgeWorker;
let alice: TestAccount;
let asAlice: Kb;

beforeAll(async () => {
  site = await startKnowledgeSite();
  server = await createTestServer({ OUTBOUND_ALLOW: `127.0.0.1:${site.port}` });
  await server.ctx.outbound.close();
  server.ctx.outbound = new OutboundClient({ allow: [`127.0.0.1:${site.port}`], allowPrivate: false });
  worker = startKnowledgeWorker(server.ctx, { pollMs: 60_000 });
  alice = await createCustomer(server, 'alice');
  asAlice = await kbClient(server, alice);
});

afterAll(async () => {
  await worker.stop();
  await server.close();
  await site.close();
});

async function collection(language?: string): Promise<string> {
  const res = await asAlice('POST', '/kb/v1/collections', { name: 'Quality', ...(language ? { language } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as string;
}

async function addText(id: string, name: string, content: string) {
  const res = await asAlice('POST', `/kb/v1/collections/${id}/items`, { name, knowledge_type: { text: { content } } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: string };
}

async function search(id: string, query: string, extra: Record<string, unknown> = {}) {
  const res = await asAlice('POST', '/kb/v1/search', { collection_ids: [id], query, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { item_id: string; item_name: string; text: string; score: number }[];
}

async function collectionInfo(id: string) {
  return (
    (await asAlice('GET', '/kb/v1/collections')).json() as {
      id: string;
      detected_language: string | null;
      reindexing: boolean;
      search_mode: string;
    }[]
  ).find((c) => c.id === id)!;
}

describe('language without asking', () => {
  it('detects a language from text with a maintained detector, and none from too little or unknown text', () => {
    expect(detectLanguage('We are open from 6:30 in the morning until seven in the evening, and on Sundays from nine.')).toBe('en');
    expect(detectLanguage('Unsere Werkstatt ist montags bis freitags von sieben bis achtzehn Uhr geöffnet.')).toBe('de');
    expect(detectLanguage('Nous livrons à vélo dans tout le centre-ville, du lundi au samedi.')).toBe('fr');
    expect(detectLanguage('ok 12')).toBeNull();
  });

  it('stems a collection of no chosen language with the language detected from its first text', async () => {
    const id = await collection();
    await addText(
      id,
      'Werkstatt',
      'Unsere Werkstatt repariert Fahrräder aller Marken, auch Lastenräder und Kinderfahrräder, meist am selben Tag.',
    );
    await worker.drain();
    expect(await collectionInfo(id)).toMatchObject({ detected_language: 'de', reindexing: false, search_mode: 'fulltext' });
    // German stemming: "Fahrrad" finds "Fahrräder".
    expect((await search(id, 'Repariert ihr mein Fahrrad?'))[0]?.item_name).toBe('Werkstatt');
  });

  it('re-indexes the chunks of an existing collection in the background, detecting its language, without blocking a request', async () => {
    const id = await collection();
    await addText(id, 'Returns', 'Bicycles bought in our shop can be returned within thirty days when they were not ridden.');
    await worker.drain();
    // As the migration leaves a collection of before: no language detected, chunks unstemmed
    // and without the item's name, waiting for a re-index.
    await server.ctx.db
      .updateTable('knowledge_collections')
      .set({ detected_language: null, index_version: 0 })
      .where('id', '=', id)
      .execute();
    await sql`update knowledge_chunks set ts_config = 'simple', tsv = to_tsvector('simple', content) where collection_id = ${id}`.execute(
      server.ctx.db,
    );
    expect((await collectionInfo(id)).reindexing).toBe(true);
    await worker.drain();
    expect(await collectionInfo(id)).toMatchObject({ detected_language: 'en', reindexing: false });
    const hits = await search(id, 'Can I return a bicycle?');
    expect(hits[0]?.item_name).toBe('Returns');
    const configs = await server.ctx.db.selectFrom('knowledge_chunks').select('ts_config').where('collection_id', '=', id).execute();
    expect(configs.map((c) => c.ts_config)).toEqual(['english']);
  });
});

describe('question-shaped queries', () => {
  it('drops the stop words of the language from a question', () => {
    expect(meaningfulWords('What are your hours?', 'en')).toEqual(['hours']);
    expect(meaningfulWords('Wann habt ihr am Sonntag geöffnet?', 'de')).toEqual(['sonntag', 'geöffnet']);
    // A question of stop words only still searches with them.
    expect(meaningfulWords('Who are you?', 'en')).toEqual(['who', 'are', 'you']);
  });

  it('counts an item name as text of its chunks: "what are your hours" finds the item named so', async () => {
    const id = await collection('en');
    await addText(id, 'Opening hours', 'We open from 6:30 on weekdays. On Sundays the café opens at nine and the workshop stays closed.');
    await addText(id, 'Jobs', 'Are you looking for work? What are your skills? Your letter is welcome, we answer all of them.');
    await worker.drain();
    const hits = await search(id, 'What are your hours?');
    expect(hits.map((h) => h.item_name)).toEqual(['Opening hours']);
  });

  it('ranks a chunk holding the rare words above one holding every common word', async () => {
    const id = await collection('en');
    for (let i = 0; i < 8; i++) await addText(id, `Note ${i}`, `Our bike shop sells bikes ${i}. Bike shop news number ${i}.`);
    await addText(id, 'Cargo bike', 'The cargo box carries 80 kg of shopping.');
    await addText(id, 'Bike shop', 'The bike shop is a bike shop with bikes.');
    await worker.drain();
    expect((await search(id, 'bike shop cargo box'))[0]?.item_name).toBe('Cargo bike');
  });
});

describe('relevance cut-off', () => {
  it('sends nothing when no passage clears the threshold, and the model is told there is no relevant knowledge', async () => {
    const id = await collection('en');
    // As in the issue: library manual pages beside the shop's own items.
    await addText(
      id,
      'ffi_closure_alloc(3)',
      'ffi_closure_alloc, ffi_closure_free, ffi_prep_closure_loc: allocate and free a closure for a function; free memory with ffi_closure_free.',
    );
    await addText(
      id,
      'malloc(3)',
      'malloc, free, calloc, realloc: allocate and free dynamic memory. free() releases the space malloc returned.',
    );
    await addText(id, 'ffi_call(3)', 'ffi_call invokes a function described by a prepared call interface; the caller frees the arguments.');
    await addText(id, 'Opening hours', 'We open from 6:30 on weekdays. On Sundays the café opens at nine.');
    await addText(id, 'Parking', 'Customers park for one hour in the garage behind the shop.');
    await worker.drain();
    expect(await search(id, 'Is delivery free?')).toEqual([]);
    // The same question with no floor gets the weak passages back.
    expect((await search(id, 'Is delivery free?', { score_threshold: 0 })).length).toBeGreaterThan(0);
    // The runtime's call passes the avatar's threshold; nothing relevant → the prompt says so.
    const retrieved = await avatarHooks().retrieve(server.ctx, alice.id, [id], 'Is delivery free?', 5, 0.3);
    expect(retrieved).toEqual([]);
    expect(knowledgeBlock(retrieved, true)).toBe(NO_RELEVANT_KNOWLEDGE);
    expect(knowledgeBlock(retrieved, false)).toBe('');
  });

  it('keeps top_k passages at most, none below a share of the best, and refuses a threshold outside 0..1', async () => {
    const id = await collection('en');
    for (let i = 0; i < 6; i++) await addText(id, `Saddle ${i}`, `Saddle model ${i}: a leather saddle for city bikes, size ${i}.`);
    await worker.drain();
    expect(await search(id, 'leather saddle', { top_k: 2 })).toHaveLength(2);
    const all = await search(id, 'leather saddle', { top_k: 10 });
    expect(all.length).toBe(6);
    expect(Math.min(...all.map((h) => h.score))).toBeGreaterThanOrEqual(all[0]!.score * SEARCH_RELATIVE_CUTOFF);
    const bad = await asAlice('POST', '/kb/v1/search', { collection_ids: [id], query: 'saddle', score_threshold: 2 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toContain('Threshold must be a number between 0 and 1.');
  });

  it("reads an avatar's top-k and threshold with defaults for avatars saved before them", () => {
    expect(knowledgeSettings({})).toEqual({ topK: 5, threshold: 0.35 });
    expect(knowledgeSettings({ knowledge_top_k: 2, knowledge_threshold: 0.6 })).toEqual({ topK: 2, threshold: 0.6 });
    expect(knowledgeSettings({ knowledge_top_k: 50 } as never)).toEqual({ topK: 5, threshold: 0.35 });
  });
});

describe('no duplicates', () => {
  it('normalises URLs: case of host, www, default port, fragment, trailing slash, tracking parameters', () => {
    const key = normalizeKnowledgeUrl('https://example.com/a/b?x=1');
    for (const u of ['HTTPS://WWW.Example.com:443/a/b/?x=1#top', 'https://example.com/a/b?utm_source=mail&x=1'])
      expect(normalizeKnowledgeUrl(u)).toBe(key);
    expect(normalizeKnowledgeUrl('https://example.com/a/c')).not.toBe(key);
  });

  it('refuses the same URL twice in a collection, item by item in a batch, and allows it in another collection', async () => {
    const id = await collection('en');
    const first = await asAlice('POST', `/kb/v1/collections/${id}/items`, {
      name: 'Warranty',
      knowledge_type: { url: { url: `${site.url}/support/warranty` } },
    });
    expect(first.statusCode, first.body).toBe(200);
    const again = await asAlice('POST', `/kb/v1/collections/${id}/items`, {
      name: 'Again',
      knowledge_type: { url: { url: `${site.url}/support/warranty/#terms` } },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors).toEqual([DUPLICATE_URL_MESSAGE('Warranty')]);
    // A crawl adds its pages as a batch: the one already there is refused, the others added.
    const batch = await asAlice('POST', `/kb/v1/collections/${id}/items/batch`, {
      items: [
        { name: 'Pricing', knowledge_type: { url: { url: `${site.url}/pricing` } } },
        { name: 'Warranty page', knowledge_type: { url: { url: `${site.url}/support/warranty` } } },
      ],
    });
    expect(batch.json().map((r: { status: string; error?: string }) => [r.status, r.error])).toEqual([
      ['success', undefined],
      ['error', DUPLICATE_URL_MESSAGE('Warranty')],
    ]);
    const other = await collection('en');
    expect(
      (
        await asAlice('POST', `/kb/v1/collections/${other}/items`, {
          name: 'Warranty',
          knowledge_type: { url: { url: `${site.url}/support/warranty` } },
        })
      ).statusCode,
    ).toBe(200);
    await worker.drain();
  });

  it('refuses the same text twice and skips a page whose content is already in the collection, keeping no chunks', async () => {
    const id = await collection('en');
    await addText(id, 'Notes', 'Opening hours: the Lisbon workshop opens at nine and closes at six, Monday to Saturday.');
    const same = await asAlice('POST', `/kb/v1/collections/${id}/items`, {
      name: 'Copy',
      knowledge_type: { text: { content: '  Opening hours: the Lisbon workshop opens at nine and closes at six,\nMonday to Saturday.' } },
    });
    expect(same.statusCode).toBe(400);
    expect(same.json().errors).toEqual([DUPLICATE_TEXT_MESSAGE('Notes')]);
    // Another URL serving the same text: read, recognised, skipped with the reason.
    const page = await asAlice('POST', `/kb/v1/collections/${id}/items`, {
      name: 'Notes page',
      knowledge_type: { url: { url: `${site.url}/notes.txt` } },
    });
    await worker.drain();
    const items = (await asAlice('GET', `/kb/v1/collections/${id}/items`)).json() as {
      id: string;
      status: string;
      fail_reason: string | null;
      chunk_count: number;
    }[];
    expect(items.find((i) => i.id === page.json().id)).toMatchObject({
      status: 'failed',
      fail_reason: duplicateContent('Notes'),
      chunk_count: 0,
    });
    const chunks = await server.ctx.db.selectFrom('knowledge_chunks').select('id').where('item_id', '=', page.json().id).execute();
    expect(chunks).toHaveLength(0);
    // One passage reaches the model, not two.
    expect((await search(id, 'When does the Lisbon workshop open?')).map((h) => h.item_name)).toEqual(['Notes']);
  });
});

describe('see and refresh', () => {
  it('opens an item to show its extracted text as chunks, and not to another account', async () => {
    const id = await collection('en');
    const item = await addText(id, 'Hours', 'We open at nine.\n\nWe close at six.');
    await worker.drain();
    const res = await asAlice('GET', `/kb/v1/items/${item.id}/chunks`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      item: { id: item.id, name: 'Hours', status: 'ready' },
      chunks: [{ ord: 0, text: expect.stringContaining('We open at nine.') }],
    });
    const bob = await kbClient(server, await createCustomer(server, 'bob-detail'));
    expect((await bob('GET', `/kb/v1/items/${item.id}/chunks`)).statusCode).toBe(404);
    expect((await bob('POST', `/kb/v1/items/${item.id}/resync`)).statusCode).toBe(404);
  });

  it('re-syncs a web page under the same id: fetched again, re-indexed, the old text gone', async () => {
    const id = await collection('en');
    site.setNews('Spring news: the workshop now repairs cargo bikes.');
    const page = (
      await asAlice('POST', `/kb/v1/collections/${id}/items`, { name: 'News', knowledge_type: { url: { url: `${site.url}/news` } } })
    ).json() as { id: string };
    await worker.drain();
    expect((await search(id, 'cargo bikes repairs'))[0]?.item_id).toBe(page.id);
    site.setNews('Summer news: guided tours along the river every Saturday.');
    const res = await asAlice('POST', `/kb/v1/items/${page.id}/resync`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().id).toBe(page.id);
    expect(['queued', 'processing']).toContain(res.json().status);
    // Not searchable while it is fetched again (nor after: the text changed).
    expect(await search(id, 'cargo bikes repairs')).toEqual([]);
    await worker.drain();
    expect((await search(id, 'guided river tours'))[0]?.item_id).toBe(page.id);
    expect(await search(id, 'cargo bikes repairs')).toEqual([]);
    const detail = (await asAlice('GET', `/kb/v1/items/${page.id}/chunks`)).json() as { chunks: { text: string }[] };
    expect(detail.chunks.map((c) => c.text).join(' ')).not.toContain('cargo');
  });

  it('refuses to re-sync a text item or an item being processed', async () => {
    const id = await collection('en');
    const text = await addText(id, 'Plain', 'Plain text cannot be fetched again.');
    const res = await asAlice('POST', `/kb/v1/items/${text.id}/resync`);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([RESYNC_URL_ONLY]);
    const page = (
      await asAlice('POST', `/kb/v1/collections/${id}/items`, { name: 'About', knowledge_type: { url: { url: `${site.url}/about` } } })
    ).json() as { id: string };
    const busy = await asAlice('POST', `/kb/v1/items/${page.id}/resync`);
    expect(busy.statusCode).toBe(400);
    expect(busy.json().errors).toEqual([RESYNC_BUSY]);
    await worker.drain();
  });
});

describe('more file types', () => {
  async function upload(name: string, data: string, type: string) {
    const body = multipart('file', name, Buffer.from(data), type);
    const res = await server.inject({
      method: 'POST',
      url: '/kb/v1/files',
      appKey: null,
      headers: {
        ...body.headers,
        authorization: `Bearer ${(await server.inject({ method: 'GET', url: '/api/token/jwt', token: alice.token })).json().jwtToken}`,
      },
      payload: body.payload,
    });
    return res;
  }

  it('reads an HTML file without its scripts and navigation, and a CSV file with its rows kept', async () => {
    const id = await collection('en');
    const html = await upload(
      'menu.html',
      '<html><head><title>Menu</title><script>var x = "tracking";</script></head><body><nav>Home</nav><main><h1>Menu</h1><p>Pastel de nata 1.50 euros.</p></main></body></html>',
      'text/html',
    );
    expect(html.statusCode, html.body).toBe(200);
    expect(html.json().file_type).toBe('text/html');
    const csv = await upload('prices.csv', 'Model,Price,Stock\nCommuter,899 EUR,4\n"Cargo, long",1899 EUR,1\n', 'text/csv');
    expect(csv.statusCode, csv.body).toBe(200);
    const a = (await asAlice('POST', `/kb/v1/collections/${id}/items`, { name: 'Menu', knowledge_type: { file: html.json() } })).json() as {
      id: string;
    };
    const b = (
      await asAlice('POST', `/kb/v1/collections/${id}/items`, { name: 'Prices', knowledge_type: { file: csv.json() } })
    ).json() as { id: string };
    await worker.drain();
    const menu = (await asAlice('GET', `/kb/v1/items/${a.id}/chunks`)).json() as { item: { status: string }; chunks: { text: string }[] };
    expect(menu.item.status).toBe('ready');
    expect(menu.chunks[0]!.text).toContain('Pastel de nata 1.50 euros.');
    expect(menu.chunks[0]!.text).not.toContain('tracking');
    const prices = (await asAlice('GET', `/kb/v1/items/${b.id}/chunks`)).json() as { chunks: { text: string }[] };
    expect(prices.chunks[0]!.text).toBe('Model | Price | Stock\nCommuter | 899 EUR | 4\nCargo, long | 1899 EUR | 1');
    expect((await search(id, 'price of the long cargo bike'))[0]?.item_name).toBe('Prices');
  });

  it('fails a malformed CSV with a clear reason and stores nothing of it; refuses a binary file named .csv', async () => {
    const id = await collection('en');
    const bad = await upload('broken.csv', 'Model,Price\n"Commuter,899\nCargo,1899\n', 'text/csv');
    expect(bad.statusCode, bad.body).toBe(200);
    const item = (
      await asAlice('POST', `/kb/v1/collections/${id}/items`, { name: 'Broken', knowledge_type: { file: bad.json() } })
    ).json() as { id: string };
    await worker.drain();
    const detail = (await asAlice('GET', `/kb/v1/items/${item.id}/chunks`)).json() as {
      item: { status: string; fail_reason: string };
      chunks: unknown[];
    };
    expect(detail.item.status).toBe('failed');
    expect(detail.item.fail_reason).toMatch(/^The CSV file could not be read \(line \d+\): Quote Not Closed\.$/);
    expect(detail.chunks).toEqual([]);
    const binary = await upload('data.csv', '\u0000\u0001binary', 'text/csv');
    expect(binary.statusCode).toBe(400);
  });
});
