import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { startKnowledgeSite, type KnowledgeSite } from '../../../../../e2e/support/stand-ins/knowledge-site';
import { OutboundClient } from '../../lib/outbound';
import { kbClient, type Kb } from '../../../test/knowledge-requests';
import { startKnowledgeWorker, type KnowledgeWorker } from './knowledge.worker';

let site: KnowledgeSite;
let server: TestServer;
let worker: KnowledgeWorker;
let alice: TestAccount;
let asAlice: Kb;

beforeAll(async () => {
  site = await startKnowledgeSite();
  server = await createTestServer({ OUTBOUND_ALLOW: `127.0.0.1:${site.port}`, CRAWL_RATE_LIMIT_PER_MINUTE: '1000' });
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

const titles = (res: { json(): unknown }) => (res.json() as { title: string }[]).map((p) => p.title);
type Collection = {
  id: string;
  crawl: { schedule: string; url: string | null; include: string[]; exclude: string[]; next_at: string | null };
};

describe('crawl path patterns', () => {
  it('lists only included paths, never fetches excluded ones, and refuses a pattern not starting with /', async () => {
    const included = await asAlice('POST', '/kb/v1/crawl', { url: `${site.url}/`, include: ['/support/**', '/about'] });
    expect(included.statusCode, included.body).toBe(200);
    expect(titles(included)).toEqual(['About Acme Bikes', 'Warranty']);

    const before = site.requests.filter((p) => p === '/pricing').length;
    const excluded = await asAlice('POST', '/kb/v1/crawl', { url: `${site.url}/`, exclude: ['/pricing', '/support/*'] });
    expect(titles(excluded)).toEqual(['Acme Bikes', 'About Acme Bikes']);
    expect(site.requests.filter((p) => p === '/pricing').length).toBe(before);

    const bad = await asAlice('POST', '/kb/v1/crawl', { url: `${site.url}/`, include: ['pricing'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual(['A path pattern starts with /.']);
  });
});

describe('re-crawl schedules', () => {
  it('re-crawls a collection when due: new pages become items, pages it holds are re-synced under the same id', async () => {
    const id = ((await asAlice('POST', '/kb/v1/collections', { name: 'Site', language: 'en' })).json() as { id: string }).id;
    const put = await asAlice('PUT', `/kb/v1/collections/${id}/crawl-schedule`, {
      schedule: 'daily',
      url: `${site.url}/`,
      include: ['/support/**', '/pricing'],
    });
    expect(put.statusCode, put.body).toBe(200);
    const next = Date.parse(put.json().next_at as string);
    expect(next - Date.now()).toBeGreaterThan(23 * 3600_000);
    const listed = ((await asAlice('GET', '/kb/v1/collections')).json() as Collection[]).find((c) => c.id === id)!;
    expect(listed.crawl).toMatchObject({ schedule: 'daily', url: `${site.url}/`, include: ['/support/**', '/pricing'], exclude: [] });

    // Not due yet: nothing happens.
    await worker.drain();
    expect((await asAlice('GET', `/kb/v1/collections/${id}/items`)).json()).toEqual([]);

    const due = () =>
      server.ctx.db
        .updateTable('knowledge_collections')
        .set({ crawl_next_at: new Date(Date.now() - 1000) })
        .where('id', '=', id)
        .execute();
    await due();
    await worker.drain();
    const first = (await asAlice('GET', `/kb/v1/collections/${id}/items`)).json() as { id: string; name: string; status: string }[];
    expect(first.map((i) => [i.name, i.status]).sort()).toEqual([
      ['Pricing', 'ready'],
      ['Warranty', 'ready'],
    ]);
    const after = ((await asAlice('GET', '/kb/v1/collections')).json() as Collection[]).find((c) => c.id === id)!;
    expect(Date.parse(after.crawl.next_at!) - Date.now()).toBeGreaterThan(23 * 3600_000);

    const fetchedBefore = site.requests.filter((p) => p === '/support/warranty').length;
    await due();
    await worker.drain();
    const second = (await asAlice('GET', `/kb/v1/collections/${id}/items`)).json() as { id: string; status: string }[];
    expect(second.map((i) => i.id).sort()).toEqual(first.map((i) => i.id).sort());
    expect(second.every((i) => i.status === 'ready')).toBe(true);
    expect(site.requests.filter((p) => p === '/support/warranty').length).toBeGreaterThan(fetchedBefore);

    const off = await asAlice('PUT', `/kb/v1/collections/${id}/crawl-schedule`, { schedule: 'off' });
    expect(off.json()).toMatchObject({ schedule: 'off', next_at: null });
  });

  it("refuses a schedule without a start page, an unknown schedule, and another account's collection", async () => {
    const id = ((await asAlice('POST', '/kb/v1/collections', { name: 'Other' })).json() as { id: string }).id;
    const noUrl = await asAlice('PUT', `/kb/v1/collections/${id}/crawl-schedule`, { schedule: 'weekly' });
    expect(noUrl.statusCode).toBe(400);
    expect(noUrl.json().errors).toEqual(['URL is required']);
    const hourly = await asAlice('PUT', `/kb/v1/collections/${id}/crawl-schedule`, { schedule: 'hourly', url: `${site.url}/` });
    expect(hourly.statusCode).toBe(400);
    const bob = await kbClient(server, await createCustomer(server, 'bob'));
    const foreign = await bob('PUT', `/kb/v1/collections/${id}/crawl-schedule`, { schedule: 'weekly', url: `${site.url}/` });
    expect(foreign.statusCode).toBe(404);
  });
});
