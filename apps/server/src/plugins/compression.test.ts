import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../test/harness';
import { playerRoutes } from '../modules/player/player.routes';
import { COMPRESS_SYNC_BYTES, registerCompression } from './compression';
import { registerSpa } from './spa';

let server: TestServer;
const apps: { close(): Promise<unknown> }[] = [];
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  for (const a of apps) await a.close();
  await server.close();
});

/** A built app folder: index.html, one script with its .br and .gz twins, one without. */
function builtDist(): { dir: string; js: string } {
  const dir = mkdtempSync(join(tmpdir(), 'parla-dist-'));
  mkdirSync(join(dir, 'assets'));
  const js = `export const words = ${JSON.stringify('lorem ipsum dolor sit amet '.repeat(400))};\n`;
  writeFileSync(join(dir, 'index.html'), `<!doctype html><div id="root"></div>${'<!-- padding -->'.repeat(100)}`);
  writeFileSync(join(dir, 'assets', 'main-abc123.js'), js);
  writeFileSync(join(dir, 'assets', 'main-abc123.js.br'), brotliCompressSync(js));
  writeFileSync(join(dir, 'assets', 'main-abc123.js.gz'), gzipSync(js));
  return { dir, js };
}

async function appWith(register: (app: ReturnType<typeof Fastify>) => Promise<void>) {
  const app = Fastify();
  await registerCompression(app);
  await register(app);
  apps.push(app);
  return app;
}

describe('compression of what the server sends', () => {
  it('sends an API answer above 1 KB with brotli to a client that accepts it, and says it varies by Accept-Encoding', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/catalogue/avatars', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    const plain = await server.inject({ method: 'GET', url: '/api/catalogue/avatars' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(plain.body);
  });

  it('compresses an answer up to COMPRESS_SYNC_BYTES in one call (with its length) and a larger one as a stream', async () => {
    // Rows shaped like the billing report's (a 200-row page is about 24 KB of JSON).
    const rows = (n: number) => ({
      rows: Array.from({ length: n }, (_v, i) => ({ avatarName: `Copy ${i}`, avatarId: `id-${i * 7919}`, minutes: i / 100 })),
    });
    const app = await appWith(async (a) => {
      a.get('/rows/:n', async (request: { params: { n: string } }) => rows(Number(request.params.n)));
    });
    for (const n of [200, 3000]) {
      const plain = JSON.stringify(rows(n));
      const res = await app.inject({ method: 'GET', url: `/rows/${n}`, headers: { 'accept-encoding': 'br' } });
      expect(res.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(plain);
      // The one-call path knows the compressed length; the stream sends chunks without one.
      if (Buffer.byteLength(plain) <= COMPRESS_SYNC_BYTES) expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      else expect(res.headers['content-length']).toBeUndefined();
    }
    expect(Buffer.byteLength(JSON.stringify(rows(200)))).toBeLessThanOrEqual(COMPRESS_SYNC_BYTES);
    expect(Buffer.byteLength(JSON.stringify(rows(3000)))).toBeGreaterThan(COMPRESS_SYNC_BYTES);
  });

  it('falls back to gzip for a client that does not speak brotli', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/catalogue/avatars', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(res.rawPayload).toString())).toBeTruthy();
  });

  it('leaves an answer under 1 KB as it is', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('does not inflate a gzip-encoded request body (a small body cannot expand past the limits)', async () => {
    const bomb = gzipSync(JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(5_000_000) }));
    const res = await server.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: bomb,
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });

  it('serves the portal asset built as brotli as it is, with a year of cache and Vary', async () => {
    const { dir, js } = builtDist();
    const app = await appWith((a) => registerSpa(a, dir));
    const res = await app.inject({
      method: 'GET',
      url: '/react/assets/main-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.rawPayload.equals(readFileSync(join(dir, 'assets', 'main-abc123.js.br')))).toBe(true);
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.headers['content-type']).toContain('javascript');
    const gz = await app.inject({ method: 'GET', url: '/react/assets/main-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(js);
    const raw = await app.inject({ method: 'GET', url: '/react/assets/main-abc123.js' });
    expect(raw.headers['content-encoding']).toBeUndefined();
    expect(raw.body).toBe(js);
  });

  it('compresses the player page and keeps its security headers', async () => {
    const { dir } = builtDist();
    const app = await appWith(async (a) => {
      await a.register(playerRoutes(server.ctx, dir));
    });
    const res = await app.inject({ method: 'GET', url: '/avatar/preview', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-security-policy']).toContain("object-src 'none'");
    expect(res.headers['permissions-policy']).toContain('microphone');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(brotliDecompressSync(res.rawPayload).toString()).toContain('id="root"');
    const asset = await app.inject({ method: 'GET', url: '/player/assets/main-abc123.js', headers: { 'accept-encoding': 'br' } });
    expect(asset.headers['content-encoding']).toBe('br');
  });
});
