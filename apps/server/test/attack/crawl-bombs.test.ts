// Crawl attacks (issue 33, items 1 and 2). A customer's own site serves a page of 400,000 nested
// <div>: crawled, re-crawled and added as a URL item, it must end as a skipped page, a clear 400
// for a start page, or an item `failed` with its reason, and never freeze the server (it did for
// 16 minutes: the page was parsed on the event loop). Crawl path patterns made to backtrack
// (`/*a*a*a*a*a*b` held the loop 21.6 s) are refused at save past five wildcards, and matched in
// linear time below. A robots.txt of 500 KB of wildcard rules (seconds of matching per long link,
// on the event loop until it was matched in the crawl's child) only costs its own crawl.
// Throughout, /api/health answers within a second (health-watchdog.ts) and no error is logged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRAWL_PATTERN_MAX_WILDCARDS } from '@parla/shared/schemas/knowledge';
import { OutboundClient } from '../../src/lib/outbound';
import { PAGE_TOO_HEAVY, startPageUnreadable } from '../../src/modules/knowledge/knowledge.crawl';
import { PAGE_TOO_DEEP } from '../../src/modules/knowledge/knowledge.html';
import { startKnowledgeWorker, type KnowledgeWorker } from '../../src/modules/knowledge/knowledge.worker';
import { createCustomer } from '../accounts';
import { createTestServer, type TestServer } from '../harness';
import { kbClient, type Kb } from '../knowledge-requests';
import { hostileRobots, LONG_PATHS, startHostileSite, type HostileSite } from './crawl-bombs';
import { errorLines, expectHealthy, watchHealth } from './health-watchdog';

let site: HostileSite;
/** Another site (its own port), with a hostile robots.txt. */
let robotsSite: HostileSite;
let server: TestServer;
let worker: KnowledgeWorker;
let base: string;
let kb: Kb;

beforeAll(async () => {
  site = await startHostileSite();
  robotsSite = await startHostileSite(hostileRobots());
  const allow = [new URL(site.url).host, new URL(robotsSite.url).host].join(',');
  server = await createTestServer({ OUTBOUND_ALLOW: allow, CRAWL_RATE_LIMIT_PER_MINUTE: '1000' });
  await server.ctx.outbound.close();
  server.ctx.outbound = new OutboundClient({ allow: allow.split(','), allowPrivate: false });
  worker = startKnowledgeWorker(server.ctx, { pollMs: 60_000 });
  base = await server.listen();
  kb = await kbClient(server, await createCustomer(server, 'crawler'));
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await server?.close();
  await site?.close();
  await robotsSite?.close();
});

type Item = { name: string; status: string; fail_reason: string | null };
const titles = (res: { json(): unknown }) => (res.json() as { title: string }[]).map((p) => p.title);

async function newCollection(name: string): Promise<string> {
  const res = await kb('POST', '/kb/v1/collections', { name });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as string;
}

async function recrawlNow(collection: string): Promise<void> {
  await server.ctx.db
    .updateTable('knowledge_collections')
    .set({ crawl_next_at: new Date(Date.now() - 1000) })
    .where('id', '=', collection)
    .execute();
  await worker.drain();
}

describe('a page of 400,000 nested elements', () => {
  it('is skipped by a crawl, answered as a clear 400 when it is the start page, and fails as a URL item, with /api/health within a second throughout', async () => {
    const watch = watchHealth(base);

    const crawl = await kb('POST', '/kb/v1/crawl', { url: `${site.url}/` });
    expect(crawl.statusCode, crawl.body).toBe(200);
    expect(titles(crawl)).toEqual(['Home', 'About']);
    expect(site.requests).toContain('/deep');

    const start = await kb('POST', '/kb/v1/crawl', { url: `${site.url}/deep` });
    expect(start.statusCode, start.body).toBe(400);
    expect(start.json().message).toBe(startPageUnreadable(PAGE_TOO_DEEP));

    const col = await newCollection('Deep site');
    const put = await kb('PUT', `/kb/v1/collections/${col}/crawl-schedule`, { schedule: 'daily', url: `${site.url}/` });
    expect(put.statusCode, put.body).toBe(200);
    await recrawlNow(col);
    const added = await kb('POST', `/kb/v1/collections/${col}/items`, {
      name: 'Deep',
      knowledge_type: { url: { url: `${site.url}/deep` } },
    });
    expect(added.statusCode, added.body).toBe(200);
    await worker.drain();

    const report = await watch.stop();
    const items = (await kb('GET', `/kb/v1/collections/${col}/items`)).json() as Item[];
    expect(items.map((i) => [i.name, i.status, i.fail_reason]).sort()).toEqual([
      ['About', 'ready', null],
      ['Deep', 'failed', PAGE_TOO_DEEP],
      ['Home', 'ready', null],
    ]);
    expectHealthy(report, 'deep page');
    expect(errorLines(server.logs)).toEqual([]);
  }, 120_000);
});

describe('crawl path patterns made to backtrack', () => {
  const tooMany = '/*a*a*a*a*a*b';
  const message = `A path pattern may have at most ${CRAWL_PATTERN_MAX_WILDCARDS} wildcards (* or ?).`;

  it('refuses a pattern of more than five wildcards when a crawl or a schedule is saved', async () => {
    const crawl = await kb('POST', '/kb/v1/crawl', { url: `${site.url}/globs`, include: [tooMany] });
    expect(crawl.statusCode).toBe(400);
    expect(crawl.json().errors).toEqual([message]);
    const col = await newCollection('Refused patterns');
    const put = await kb('PUT', `/kb/v1/collections/${col}/crawl-schedule`, {
      schedule: 'weekly',
      url: `${site.url}/`,
      exclude: [tooMany],
    });
    expect(put.statusCode).toBe(400);
    expect(put.json().errors).toEqual([message]);
    const saved = (await kb('GET', '/kb/v1/collections')).json() as { id: string; crawl: { schedule: string } }[];
    expect(saved.find((c) => c.id === col)!.crawl.schedule).toBe('off');
  });

  it('matches the allowed worst cases against long paths, crawled and re-crawled, with /api/health within a second throughout', async () => {
    const patterns = { include: ['/*a*a*a*a*b', '/about'], exclude: ['/**/a*a*a*a*c'] };
    const watch = watchHealth(base);
    const crawl = await kb('POST', '/kb/v1/crawl', { url: `${site.url}/globs`, limit: 20, ...patterns });
    expect(crawl.statusCode, crawl.body).toBe(200);
    expect(titles(crawl)).toEqual(['About']);
    // Every long path was matched (the exclude pattern before fetching, both after).
    expect(site.requests.filter((p) => /^\/a{20,}$/.test(p)).length).toBe(LONG_PATHS);

    const col = await newCollection('Patterns');
    const put = await kb('PUT', `/kb/v1/collections/${col}/crawl-schedule`, { schedule: 'daily', url: `${site.url}/globs`, ...patterns });
    expect(put.statusCode, put.body).toBe(200);
    await recrawlNow(col);
    const report = await watch.stop();

    const items = (await kb('GET', `/kb/v1/collections/${col}/items`)).json() as Item[];
    expect(items.map((i) => [i.name, i.status])).toEqual([['About', 'ready']]);
    expectHealthy(report, 'backtracking patterns');
    expect(errorLines(server.logs)).toEqual([]);
  }, 120_000);
});

describe('a robots.txt of 500 KB of wildcard rules', () => {
  it("costs only its own crawl: the start page's links are matched in the crawl's child, which is stopped; re-crawled the same; /api/health within a second throughout", async () => {
    const watch = watchHealth(base);
    const crawl = await kb('POST', '/kb/v1/crawl', { url: `${robotsSite.url}/globs` });
    expect(crawl.statusCode, crawl.body).toBe(400);
    expect(crawl.json().message).toBe(startPageUnreadable(PAGE_TOO_HEAVY));
    expect(robotsSite.requests.slice(0, 2)).toEqual(['/robots.txt', '/globs']);
    // A page whose links the rules decide quickly is crawled as the rules say.
    const home = await kb('POST', '/kb/v1/crawl', { url: `${robotsSite.url}/` });
    expect(home.statusCode, home.body).toBe(200);
    expect(titles(home)).toEqual(['Home', 'About']);

    const col = await newCollection('Hostile robots');
    const put = await kb('PUT', `/kb/v1/collections/${col}/crawl-schedule`, { schedule: 'daily', url: `${robotsSite.url}/globs` });
    expect(put.statusCode, put.body).toBe(200);
    await recrawlNow(col);
    const report = await watch.stop();
    expectHealthy(report, 'hostile robots.txt');
    expect(errorLines(server.logs)).toEqual([]);
  }, 180_000);
});
