// Issue 17, item 8: the chat widget page exists to be embedded, so it sets no X-Frame-Options;
// every other portal page may be framed only by the portal itself. The real plugin over a real
// (temporary) build directory.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSpa } from './spa';

let app: FastifyInstance;
beforeAll(async () => {
  const dist = mkdtempSync(join(tmpdir(), 'parla-spa-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Parla</title>');
  app = Fastify();
  await registerSpa(app, dist);
  await app.ready();
});
afterAll(() => app.close());

const get = (url: string) => app.inject({ method: 'GET', url });

describe('framing of the portal pages', () => {
  it('lets other sites frame the chat widget, with or without a query', async () => {
    for (const url of ['/react/chatWidget/3f1c9a8e-1111-4222-8333-944455556666', '/react/chatWidget/abc?token=t&lang=en']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['x-frame-options'], url).toBeUndefined();
    }
  });

  it('keeps every other page, and look-alike paths, same-origin only', async () => {
    for (const url of [
      '/react/',
      '/react/account',
      '/react/login?next=/react/chatWidget/x',
      '/react/chatWidget',
      '/react/chatWidgetx/abc',
      '/react/chatWidget/a/b',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
    }
  });
});
