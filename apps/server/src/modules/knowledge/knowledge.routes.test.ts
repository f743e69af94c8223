import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MB } from '@parla/shared/limits';
import { INVALID_FILE_MESSAGE } from '@parla/shared/schemas/knowledge';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { startCanary, type Canary } from '../../../test/canary';
import { privateResolver, ssrfVectors } from '../../../test/ssrf-vectors';
import { OutboundClient } from '../../lib/outbound';
import { createTestServer, type TestServer } from '../../../test/harness';
import { startKnowledgeSite, type KnowledgeSite } from '../../../../../e2e/support/stand-ins/knowledge-site';
import { makeDocx, makePdf } from './knowledge.fixtures';
import { textSearchConfig } from './knowledge.language';
import { insertChunks } from './knowledge.repository';
import { RANK_CANDIDATES } from './knowledge.search';
import { kbClient, multipart, type Kb } from '../../../test/knowledge-requests';
import { startKnowledgeWorker, type KnowledgeWorker } from './knowledge.worker';

let server: TestServer;
let site: KnowledgeSite;
let canary: Canary;
let worker: KnowledgeWorker;
let alice: TestAccount;
let bob: TestAccount;
let asAlice: Kb;
let asBob: Kb;

beforeAll(async () => {
  site = await startKnowledgeSite();
  canary = await startCanary();
  server = await createTestServer({ OUTBOUND_ALLOW: `127.0.0.1:${site.port}`, CRAWL_RATE_LIMIT_PER_MINUTE: '1000' });
  // Names under .private-resolve.test answer private addresses (test/ssrf-vectors.ts).
  await server.ctx.outbound.close();
  server.ctx.outbound = new OutboundClient({
    allow: [`127.0.0.1:${site.port}`],
    allowPrivate: false,
    resolve: privateResolver,
  });
  worker = startKnowledgeWorker(server.ctx, { pollMs: 60_000 });
  alice = await createCustomer(server, 'alice');
  bob = await createCustomer(server, 'bob');
  asAlice = await kbClient(server, alice);
  asBob = await kbClient(server, bob);
});

afterAll(async () => {
  await worker.stop();
  await server.close();
  await site.close();
  await canary.close();
});

async function newCollection(kb: Kb, name = 'Docs', language?: string): Promise<string> {
  const res = await kb('POST', '/kb/v1/collections', { name, ...(language ? { language } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as string;
}

async function addItem(kb: Kb, collectionId: string, item: unknown) {
  const res = await kb('POST', `/kb/v1/collections/${collectionId}/items`, item);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: string; status: string };
}

async function items(kb: Kb, collectionId: string) {
  const res = await kb('GET', `/kb/v1/collections/${collectionId}/items`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: string; name: string; status: string; fail_reason: string | null; chunk_count: number }[];
}

async function search(kb: Kb, collectionIds: string[], query: string, topK = 5) {
  const res = await kb('POST', '/kb/v1/search', { collection_ids: collectionIds, query, top_k: topK });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { item_id: string; item_name: string; text: string; score: number; match: string }[];
}

async function storedFiles(ownerId: string): Promise<number> {
  const rows = await server.ctx.db.selectFrom('stored_files').select('id').where('owner_id', '=', ownerId).execute();
  return rows.length;
}

/** The owner's stored bytes (file_chunks, decision 015) and any upload temp file left behind. */
async function filesOnDisk(ownerId: string): Promise<string[]> {
  const chunks = await server.ctx.db
    .selectFrom('file_chunks')
    .innerJoin('stored_files', 'stored_files.id', 'file_chunks.file_id')
    .select('file_chunks.file_id')
    .where('stored_files.owner_id', '=', ownerId)
    .execute();
  const temp = await readdir(join(server.ctx.files.root, 'tmp')).catch(() => [] as string[]);
  return [...chunks.map((c) => c.file_id), ...temp];
}

describe('the knowledge API', () => {
  it('refuses requests without a valid knowledge token', async () => {
    const none = await server.inject({ method: 'GET', url: '/kb/v1/collections', appKey: null });
    expect(none.statusCode).toBe(401);
    const session = await server.inject({ method: 'GET', url: '/kb/v1/collections', token: alice.token });
    expect(session.statusCode).toBe(401);
    const forged = await server.inject({
      method: 'GET',
      url: '/kb/v1/collections',
      appKey: null,
      headers: { authorization: 'Bearer a.b.c' },
    });
    expect(forged.statusCode).toBe(401);
  });

  it('creates, renames and lists collections, with the spec message for a missing name', async () => {
    const bad = await asAlice('POST', '/kb/v1/collections', { name: '  ' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual(['Collection name is a required field.']);
    const id = await newCollection(asAlice, 'Handbook');
    const put = await asAlice('PUT', `/kb/v1/collections/${id}`, { name: 'Staff handbook' });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ id, name: 'Staff handbook' });
    const list = await asAlice('GET', '/kb/v1/collections');
    expect(list.json().map((c: { name: string }) => c.name)).toContain('Staff handbook');
  });

  it('validates items with the spec messages', async () => {
    const id = await newCollection(asAlice);
    const noName = await asAlice('POST', `/kb/v1/collections/${id}/items`, { name: '', knowledge_type: { text: { content: 'x' } } });
    expect(noName.json().errors).toContain('Name is required');
    const noContent = await asAlice('POST', `/kb/v1/collections/${id}/items`, { name: 'A', knowledge_type: { text: { content: ' ' } } });
    expect(noContent.json().errors).toContain('Content is required');
    const badUrl = await asAlice('POST', `/kb/v1/collections/${id}/items`, { name: 'A', knowledge_type: { url: { url: 'http://nodot' } } });
    expect(badUrl.json().errors).toContain('Enter a valid URL');
    const two = await asAlice('POST', `/kb/v1/collections/${id}/items`, {
      name: 'A',
      knowledge_type: { text: { content: 'x' }, url: { url: 'https://example.com' } },
    });
    expect(two.statusCode).toBe(400);
  });

  it('ingests a text item and finds the right chunk first', async () => {
    const id = await newCollection(asAlice, 'Policies', 'en-US');
    const filler = Array.from({ length: 400 }, (_, i) => `Paragraph ${i} talks about bicycles, saddles and commuting in general.`).join(
      '\n\n',
    );
    await addItem(asAlice, id, { name: 'Filler', knowledge_type: { text: { content: filler } } });
    const policy = await addItem(asAlice, id, {
      name: 'Refund policy',
      knowledge_type: { text: { content: 'Refunds: customers may return any bicycle within thirty days for a full refund.' } },
    });
    expect(policy.status).toBe('queued');
    await worker.drain();
    const list = await items(asAlice, id);
    expect(list.every((i) => i.status === 'ready')).toBe(true);
    expect(list.find((i) => i.name === 'Filler')!.chunk_count).toBeGreaterThan(3);
    const hits = await search(asAlice, [id], 'how do I get a refund for my bike?');
    expect(hits[0]).toMatchObject({ item_id: policy.id, item_name: 'Refund policy', match: 'fulltext' });
    expect(hits[0]!.score).toBeGreaterThan(0);
    // English stemming: "returning" finds "return".
    expect((await search(asAlice, [id], 'returning bicycles'))[0]!.item_id).toBe(policy.id);
  });

  it('re-indexes a collection when its language changes', async () => {
    const id = await newCollection(asAlice, 'Language', 'none');
    await addItem(asAlice, id, {
      name: 'Cycling',
      knowledge_type: { text: { content: 'She was cycling along the rivers every morning.' } },
    });
    await worker.drain();
    // 'simple' (no stemming chosen) matches words as written: "rivers" is not "river".
    expect(await search(asAlice, [id], 'river')).toHaveLength(0);
    const put = await asAlice('PUT', `/kb/v1/collections/${id}`, { name: 'Language', language: 'en-GB' });
    expect(put.statusCode, put.body).toBe(200);
    // Re-indexed in the background, not in the request.
    expect(put.json()).toMatchObject({ language: 'en-GB', reindexing: true });
    await worker.drain();
    expect((await search(asAlice, [id], 'river'))[0]!.item_name).toBe('Cycling');
    expect((await asAlice('GET', '/kb/v1/collections')).json().find((c: { id: string }) => c.id === id)).toMatchObject({
      reindexing: false,
    });
  });

  it('ranks first the chunks where a common word occurs most, beyond the matches it ranks in index order', async () => {
    const id = await newCollection(asAlice, 'Shop', 'en');
    const item = await addItem(asAlice, id, { name: 'Catalogue', knowledge_type: { text: { content: 'The shop catalogue.' } } });
    await worker.drain();
    // More chunks with "acme" once than a search ranks in the index's order, then the ones with
    // it four, three and two times (same length, so occurrences decide), stored last.
    const words = ['bicycle', 'saddle', 'helmet', 'pedal', 'chain', 'wheel', 'frame', 'brake', 'tyre'];
    const text = (times: number, n: number) => [...Array<string>(times).fill('acme'), ...words.slice(0, 9 - times), `model${n}`].join(' ');
    const rows = (contents: string[]) =>
      contents.map((content, i) => ({ owner_id: alice.id, collection_id: id, item_id: item.id, ord: i + 1, content }));
    const config = await textSearchConfig(server.ctx.db, 'en');
    await insertChunks(server.ctx.db, rows(Array.from({ length: RANK_CANDIDATES + 100 }, (_, n) => text(1, n))), config);
    await insertChunks(server.ctx.db, rows([text(2, 0), text(4, 0), text(3, 0)]), config);
    const occurrences = (hits: { text: string }[]) => hits.map((h) => h.text.split('acme').length - 1);
    expect(occurrences(await search(asAlice, [id], 'Acme', 3))).toEqual([4, 3, 2]);
    expect(occurrences(await search(asAlice, [id], 'acme bicycles', 3))).toEqual([4, 3, 2]);

    // A re-index (another language) rewrites the impact rows with the chunks.
    const put = await asAlice('PUT', `/kb/v1/collections/${id}`, { name: 'Shop', language: 'none' });
    expect(put.statusCode, put.body).toBe(200);
    await worker.drain();
    expect(occurrences(await search(asAlice, [id], 'acme', 3))).toEqual([4, 3, 2]);
    const terms = () =>
      server.ctx.db
        .selectFrom('knowledge_chunk_terms')
        .select(['ts_config', 'tf'])
        .where('collection_id', '=', id)
        .where('lexeme', '=', 'acme')
        .execute();
    expect((await terms()).map((t) => `${t.ts_config} ${t.tf}`).sort()).toEqual(['simple 2', 'simple 3', 'simple 4']);

    // Retry and delete take them with the chunks.
    await server.ctx.db.updateTable('knowledge_items').set({ status: 'failed', fail_reason: 'test' }).where('id', '=', item.id).execute();
    expect((await asAlice('POST', `/kb/v1/items/${item.id}/retry`)).statusCode).toBe(200);
    await worker.drain();
    expect(await terms()).toHaveLength(0);
    expect((await asAlice('DELETE', `/kb/v1/items/${item.id}`)).statusCode).toBe(200);
    expect(
      await server.ctx.db.selectFrom('knowledge_chunk_terms').select('chunk_id').where('collection_id', '=', id).execute(),
    ).toHaveLength(0);
  });

  it('fetches a URL item as readable text, without navigation or scripts', async () => {
    const id = await newCollection(asAlice, 'Site');
    const item = await addItem(asAlice, id, { name: 'Pricing', knowledge_type: { url: { url: `${site.url}/pricing` } } });
    await worker.drain();
    const chunks = await server.ctx.db.selectFrom('knowledge_chunks').select('content').where('item_id', '=', item.id).execute();
    const text = chunks.map((c) => c.content).join('\n');
    expect(text).toContain('Commuter | 899 EUR');
    expect(text).not.toContain('tracking');
    expect(text).not.toContain('menu text');
    expect((await search(asAlice, [id], 'cargo price'))[0]!.text).toContain('Cargo | 1899 EUR');
  });

  it('crawls the same site breadth-first, honouring robots.txt and noindex, never leaving the site', async () => {
    const res = await asAlice('POST', '/kb/v1/crawl', { url: `${site.url}/`, limit: 20 });
    expect(res.statusCode, res.body).toBe(200);
    const pages = res.json() as { url: string; title: string }[];
    expect(pages.map((p) => p.title)).toEqual(['Acme Bikes', 'About Acme Bikes', 'Pricing', 'Warranty']);
    expect(pages[3]!.url).toBe(`${site.url}/support/warranty`);
    expect(site.requests).not.toContain('/private/admin');
    expect(site.requests).not.toContain('/logo.png');
    const limited = await asAlice('POST', '/kb/v1/crawl', { url: `${site.url}/`, limit: 2 });
    expect(limited.json()).toHaveLength(2);
    const tooMany = await asAlice('POST', '/kb/v1/crawl', { url: `${site.url}/`, limit: 21 });
    expect(tooMany.statusCode).toBe(400);
  });

  it('adds crawled pages as a batch and reports each item', async () => {
    const id = await newCollection(asAlice, 'Crawled');
    const res = await asAlice('POST', `/kb/v1/collections/${id}/items/batch`, {
      items: [
        { name: 'About', knowledge_type: { url: { url: `${site.url}/about` } } },
        { name: '', knowledge_type: { url: { url: `${site.url}/pricing` } } },
        { name: 'Metadata', knowledge_type: { url: { url: 'http://169.254.169.254/latest/meta-data/' } } },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const results = res.json() as { index: number; status: string; error?: string }[];
    expect(results.map((r) => r.status)).toEqual(['success', 'error', 'error']);
    expect(results[1]!.error).toContain('Name is required');
    expect(results[2]!.error).toMatch(/private, reserved/);
    await worker.drain();
    expect((await search(asAlice, [id], 'founded 1999'))[0]!.item_name).toBe('About');
  });

  it('refuses URL items and crawls aimed at private or reserved addresses, without a connection', async () => {
    const id = await newCollection(asAlice);
    const vectors = ssrfVectors(canary.port);
    const named = [
      'http://127.0.0.1:9/secret',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]:8080/',
      'http://ten.private-resolve.test/',
    ];
    for (const url of [...named, ...vectors]) {
      const item = await asAlice('POST', `/kb/v1/collections/${id}/items`, { name: 'x', knowledge_type: { url: { url } } });
      expect(item.statusCode, `${url}: ${item.body}`).toBe(400);
      const crawl = await asAlice('POST', '/kb/v1/crawl', { url });
      expect(crawl.statusCode, `${url}: ${crawl.body}`).toBe(400);
    }
    // Those that pass the URL pattern are refused by the guard, with its message.
    for (const url of named) {
      const item = await asAlice('POST', `/kb/v1/collections/${id}/items`, { name: 'x', knowledge_type: { url: { url } } });
      expect(item.json().failReason, `${url}: ${item.body}`).toBe('ADDRESS_REFUSED');
      const crawl = await asAlice('POST', '/kb/v1/crawl', { url });
      expect(crawl.json().message).toMatch(/private, reserved/);
    }
    expect(await items(asAlice, id)).toHaveLength(0);
    expect(canary.connections()).toBe(0);
  });

  it('fails an item whose page redirects to a private address, with the reason', async () => {
    const id = await newCollection(asAlice);
    const item = await addItem(asAlice, id, { name: 'Redirect', knowledge_type: { url: { url: `${site.url}/redirect-private` } } });
    await worker.drain();
    const row = (await items(asAlice, id)).find((i) => i.id === item.id)!;
    expect(row.status).toBe('failed');
    expect(row.fail_reason).toMatch(/private, reserved/);
  });

  it('retries a failed item', async () => {
    const id = await newCollection(asAlice);
    const item = await addItem(asAlice, id, { name: 'Flaky', knowledge_type: { url: { url: `${site.url}/flaky` } } });
    await worker.drain();
    let row = (await items(asAlice, id))[0]!;
    expect(row).toMatchObject({ status: 'failed', fail_reason: 'The page answered with HTTP status 503.' });
    site.setFlakyHealthy(true);
    const retry = await asAlice('POST', `/kb/v1/items/${item.id}/retry`);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(['queued', 'processing']).toContain(retry.json().status);
    await worker.drain();
    row = (await items(asAlice, id))[0]!;
    expect(row.status).toBe('ready');
    const again = await asAlice('POST', `/kb/v1/items/${item.id}/retry`);
    expect(again.statusCode).toBe(400);
  });

  it('uploads a PDF and a DOCX, extracts and finds their text', async () => {
    const id = await newCollection(asAlice, 'Files', 'en');
    const pdf = multipart(
      'file',
      'manual.pdf',
      makePdf(['Chain maintenance: oil the chain every two hundred kilometres.']),
      'application/pdf',
    );
    const upPdf = await server.inject({
      method: 'POST',
      url: '/kb/v1/files',
      appKey: null,
      headers: { ...pdf.headers, authorization: await jwtHeader(alice) },
      payload: pdf.payload,
    });
    expect(upPdf.statusCode, upPdf.body).toBe(200);
    expect(upPdf.json()).toMatchObject({ file_name: 'manual.pdf', file_type: 'application/pdf' });
    const docx = multipart(
      'file',
      'terms.docx',
      makeDocx(
        ['Delivery takes five working days within Portugal.'],
        [
          ['Zone', 'Fee'],
          ['Lisbon', '0 EUR'],
        ],
      ),
    );
    const upDocx = await server.inject({
      method: 'POST',
      url: '/kb/v1/files',
      appKey: null,
      headers: { ...docx.headers, authorization: await jwtHeader(alice) },
      payload: docx.payload,
    });
    expect(upDocx.statusCode, upDocx.body).toBe(200);
    const pdfItem = await addItem(asAlice, id, { name: 'Manual', knowledge_type: { file: upPdf.json() } });
    const docxItem = await addItem(asAlice, id, { name: 'Terms', knowledge_type: { file: upDocx.json() } });
    await worker.drain();
    expect((await items(asAlice, id)).map((i) => i.status)).toEqual(['ready', 'ready']);
    expect((await search(asAlice, [id], 'how often should I oil the chain'))[0]!.item_id).toBe(pdfItem.id);
    const delivery = await search(asAlice, [id], 'delivery fee Lisbon');
    expect(delivery[0]!.item_id).toBe(docxItem.id);
    expect(delivery[0]!.text).toContain('Lisbon | 0 EUR');
    // An upload belongs to one item only.
    const twice = await asAlice('POST', `/kb/v1/collections/${id}/items`, { name: 'Again', knowledge_type: { file: upPdf.json() } });
    expect(twice.statusCode).toBe(400);
  });

  it('refuses oversize and wrong-type files and keeps nothing', async () => {
    const carol = await createCustomer(server, 'carol');
    const auth = await jwtHeader(carol);
    const cases = [
      { name: 'notes.txt', data: Buffer.alloc(5 * MB + 1, 0x61), status: 413, message: '❌ File size exceeds 5MB for Text/Markdown.' },
      { name: 'fake.pdf', data: Buffer.from('this is not a pdf at all'), status: 400, message: INVALID_FILE_MESSAGE },
      { name: 'fake.docx', data: Buffer.from('%PDF-1.4 pretending to be a docx'), status: 400, message: INVALID_FILE_MESSAGE },
      { name: 'binary.txt', data: Buffer.from([0x41, 0x00, 0x42, 0xff]), status: 400, message: INVALID_FILE_MESSAGE },
      { name: 'program.exe', data: Buffer.from('MZ....'), status: 400, message: INVALID_FILE_MESSAGE },
      { name: 'empty.md', data: Buffer.alloc(0), status: 400, message: INVALID_FILE_MESSAGE },
    ];
    for (const c of cases) {
      const body = multipart('file', c.name, c.data);
      const res = await server.inject({
        method: 'POST',
        url: '/kb/v1/files',
        appKey: null,
        headers: { ...body.headers, authorization: auth },
        payload: body.payload,
      });
      expect(res.statusCode, `${c.name}: ${res.body}`).toBe(c.status);
      expect(res.json().errors).toEqual([c.message]);
    }
    expect(await storedFiles(carol.id)).toBe(0);
    expect(await filesOnDisk(carol.id)).toEqual([]);
  });

  it('deletes an item with its chunks and file', async () => {
    const id = await newCollection(asAlice);
    const body = multipart('file', 'faq.md', Buffer.from('# FAQ\n\nTyres are pumped for free at the front desk.'));
    const up = await server.inject({
      method: 'POST',
      url: '/kb/v1/files',
      appKey: null,
      headers: { ...body.headers, authorization: await jwtHeader(alice) },
      payload: body.payload,
    });
    expect(up.statusCode, up.body).toBe(200);
    const item = await addItem(asAlice, id, { name: 'FAQ', knowledge_type: { file: up.json() } });
    await worker.drain();
    expect(await search(asAlice, [id], 'tyres')).toHaveLength(1);
    const fileId = (up.json().url as string).split('/').pop()!;
    const del = await asAlice('DELETE', `/kb/v1/items/${item.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(await search(asAlice, [id], 'tyres')).toHaveLength(0);
    expect(await server.ctx.files.find(server.ctx.db, alice.id, fileId)).toBeUndefined();
    expect((await asAlice('DELETE', `/kb/v1/items/${item.id}`)).statusCode).toBe(404);
  });

  it('deletes a collection with its items, chunks and files', async () => {
    const id = await newCollection(asAlice, 'Temporary');
    await addItem(asAlice, id, { name: 'T', knowledge_type: { text: { content: 'Temporary knowledge about unicycles.' } } });
    await worker.drain();
    const del = await asAlice('DELETE', `/kb/v1/collections/${id}`);
    expect(del.statusCode, del.body).toBe(200);
    const left = await server.ctx.db.selectFrom('knowledge_chunks').select('id').where('collection_id', '=', id).execute();
    expect(left).toHaveLength(0);
    expect((await asAlice('GET', `/kb/v1/collections/${id}/items`)).statusCode).toBe(404);
  });
});

describe('tenant isolation', () => {
  it('answers 400 to an upload the multipart parser cannot read, and keeps nothing', async () => {
    const jwt = (await server.inject({ method: 'GET', url: '/api/token/jwt', token: alice.token })).json().jwtToken as string;
    const headers = (type: string) => ({ authorization: `Bearer ${jwt}`, 'content-type': type });
    const good = multipart('file', 'notes.txt', Buffer.from('hello'));
    const bodies: [string, Buffer | string][] = [
      ['multipart/form-data; boundary=x', '{'],
      ['multipart/form-data; boundary=x', ''],
      [good.headers['content-type'], good.payload.subarray(0, good.payload.length - 20)],
      // A part without Content-Disposition larger than the parser's buffer stalls it.
      [
        good.headers['content-type'],
        Buffer.from(
          good.payload.toString('latin1').replace('Content-Disposition', 'Content-Dispositio').replace('hello', 'x'.repeat(40_000)),
          'latin1',
        ),
      ],
    ];
    for (const [type, payload] of bodies) {
      const res = await server.inject({ method: 'POST', url: '/kb/v1/files', appKey: null, headers: headers(type), payload });
      expect(res.statusCode, `${type} ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ status: 'ERROR', code: 7 });
    }
    const tmp = join(server.ctx.files.root, 'tmp');
    expect(await readdir(tmp).catch(() => [])).toEqual([]);
  });

  it("answers 404 for another account's collection, item and file everywhere", async () => {
    const id = await newCollection(asAlice, 'Private to Alice');
    const item = await addItem(asAlice, id, { name: 'Secret', knowledge_type: { text: { content: 'The vault code is tangerine.' } } });
    const body = multipart('file', 'secret.txt', Buffer.from('alice only'));
    const up = await server.inject({
      method: 'POST',
      url: '/kb/v1/files',
      appKey: null,
      headers: { ...body.headers, authorization: await jwtHeader(alice) },
      payload: body.payload,
    });
    const fileUrl = up.json().url as string;
    const calls: [Parameters<Kb>[0], string, unknown?][] = [
      ['GET', `/kb/v1/collections/${id}/items`],
      ['PUT', `/kb/v1/collections/${id}`, { name: 'Mine now' }],
      ['DELETE', `/kb/v1/collections/${id}`],
      ['POST', `/kb/v1/collections/${id}/items`, { name: 'x', knowledge_type: { text: { content: 'x' } } }],
      ['POST', `/kb/v1/collections/${id}/items/batch`, { items: [{ name: 'x', knowledge_type: { text: { content: 'x' } } }] }],
      ['DELETE', `/kb/v1/items/${item.id}`],
      ['POST', `/kb/v1/items/${item.id}/retry`],
      ['GET', fileUrl],
      ['POST', '/kb/v1/search', { collection_ids: [id], query: 'vault' }],
    ];
    for (const [method, url, payload] of calls) {
      const res = await asBob(method, url, payload);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
    }
    // Bob cannot bind Alice's upload to his own collection.
    const bobs = await newCollection(asBob, 'Bob');
    const steal = await asBob('POST', `/kb/v1/collections/${bobs}/items`, { name: 'x', knowledge_type: { file: up.json() } });
    expect(steal.statusCode).toBe(404);
    expect((await asAlice('GET', `/kb/v1/collections/${id}/items`)).json()).toHaveLength(1);
  });

  it("never returns another account's chunks", async () => {
    const a = await newCollection(asAlice, 'A');
    const b = await newCollection(asBob, 'B');
    await addItem(asAlice, a, {
      name: 'Alice note',
      knowledge_type: { text: { content: 'Zebra crossings near the harbour are repainted in spring.' } },
    });
    await addItem(asBob, b, { name: 'Bob note', knowledge_type: { text: { content: 'Zebra stripes are unique to each animal.' } } });
    await worker.drain();
    const bobHits = await search(asBob, [b], 'zebra stripes');
    expect(bobHits.map((h) => h.item_name)).toEqual(['Bob note']);
    const mixed = await asBob('POST', '/kb/v1/search', { collection_ids: [b, a], query: 'zebra' });
    expect(mixed.statusCode).toBe(404);
  });
});

async function jwtHeader(account: TestAccount): Promise<string> {
  const res = await server.inject({ method: 'GET', url: '/api/token/jwt', token: account.token });
  return `Bearer ${res.json().jwtToken as string}`;
}
