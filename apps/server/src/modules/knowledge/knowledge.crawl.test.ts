import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../../test/harness';
import { OutboundClient } from '../../lib/outbound';
import { crawlSite, PAGE_TOO_HEAVY, startPageUnreadable } from './knowledge.crawl';

// A page whose DOM needs far more than the reader's heap (half a million elements, 4.5 MB),
// between honest pages.
const heavy = `<html><head><title>Heavy</title></head><body>${'<b>x</b>'.repeat(560_000)}</body></html>`;
const page = (title: string, links: string) => `<html><head><title>${title}</title></head><body><main>${links}</main></body></html>`;
const pages: Record<string, string> = {
  '/': page('Home', '<a href="/heavy">Heavy</a> <a href="/after">After</a>'),
  '/heavy': heavy,
  '/after': page('After', '<a href="/last">Last</a>'),
  '/last': page('Last', ''),
};

let site: Server;
let base: string;
let server: TestServer;
const LIMITS = { timeMs: 20_000, heapMb: 32, rssMb: 400 };

beforeAll(async () => {
  site = createServer((req, res) => {
    const body = pages[new URL(req.url ?? '/', 'http://x').pathname];
    res.statusCode = body ? 200 : 404;
    res.setHeader('content-type', 'text/html');
    res.end(body ?? '');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(site.address() as AddressInfo).port}`;
  base = `http://${host}`;
  server = await createTestServer({ OUTBOUND_ALLOW: host });
  await server.ctx.outbound.close();
  server.ctx.outbound = new OutboundClient({ allow: [host], allowPrivate: false });
});

afterAll(async () => {
  await server.close();
  await new Promise((resolve) => site.close(resolve));
});

describe('the crawler’s page reader', () => {
  it('skips a page its reader could not hold, and reads the next pages in a new reader', async () => {
    const pagesFound = await crawlSite(server.ctx, `${base}/`, 20, {}, { pageLimits: LIMITS });
    expect(pagesFound.map((p) => p.title)).toEqual(['Home', 'After', 'Last']);
  }, 60_000);

  it('answers why when the start page itself could not be read', async () => {
    await expect(crawlSite(server.ctx, `${base}/heavy`, 20, {}, { pageLimits: LIMITS })).rejects.toThrow(
      startPageUnreadable(PAGE_TOO_HEAVY),
    );
  }, 60_000);
});
