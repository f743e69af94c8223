import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCanary, type Canary } from '../../test/canary';
import { privateResolver, ssrfVectors } from '../../test/ssrf-vectors';
import { isPublicAddress, OutboundClient, OutboundFailed, OutboundRefused } from './outbound';

let canary: Canary;
let standIn: Server;
let standInPort: number;

const testResolver = privateResolver;

beforeAll(async () => {
  canary = await startCanary();
  standIn = createServer((req, res) => {
    if (req.url === '/to-canary') return res.writeHead(302, { location: `http://127.0.0.1:${canary.port}/` }).end();
    if (req.url === '/to-metadata') return res.writeHead(301, { location: 'http://169.254.169.254/' }).end();
    if (req.url === '/to-self') return res.writeHead(307, { location: '/ok' }).end();
    if (req.url === '/big') return res.end(Buffer.alloc(2048, 1));
    if (req.url === '/slow') return setTimeout(() => res.end('late'), 2000);
    res.end(JSON.stringify({ ok: true, method: req.method }));
  });
  await new Promise<void>((r) => standIn.listen(0, '127.0.0.1', () => r()));
  standInPort = (standIn.address() as AddressInfo).port;
});
afterAll(async () => {
  await canary.close();
  await new Promise<void>((r) => standIn.close(() => r()));
});

const client = () => new OutboundClient({ allow: [`127.0.0.1:${standInPort}`], allowPrivate: false, resolve: testResolver });

describe('outbound guard', () => {
  it('refuses every SSRF vector without a single connection reaching the canary', async () => {
    const c = client();
    const vectors = ssrfVectors(canary.port);
    expect(vectors.length).toBeGreaterThanOrEqual(40);
    const outcomes: string[] = [];
    for (const url of vectors) {
      try {
        await c.fetch(url, { timeoutMs: 2000 });
        outcomes.push(`ALLOWED ${url}`);
      } catch (err) {
        if (!(err instanceof OutboundRefused)) outcomes.push(`NOT REFUSED ${url}: ${String(err)}`);
      }
    }
    await c.close();
    expect(outcomes).toEqual([]);
    expect(canary.connections()).toBe(0);
  });

  it('reaches an allow-listed loopback stand-in and follows its redirects to itself', async () => {
    const c = client();
    const res = await c.fetch(`http://127.0.0.1:${standInPort}/to-self`);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ ok: true, method: 'GET' });
    await c.close();
  });

  it('checks every redirect hop', async () => {
    const c = client();
    await expect(c.fetch(`http://127.0.0.1:${standInPort}/to-canary`)).rejects.toBeInstanceOf(OutboundRefused);
    await expect(c.fetch(`http://127.0.0.1:${standInPort}/to-metadata`)).rejects.toBeInstanceOf(OutboundRefused);
    expect(canary.connections()).toBe(0);
    await c.close();
  });

  it('caps the response size and the time', async () => {
    const c = client();
    await expect(c.fetch(`http://127.0.0.1:${standInPort}/big`, { maxBytes: 1024 })).rejects.toBeInstanceOf(OutboundFailed);
    await expect(c.fetch(`http://127.0.0.1:${standInPort}/slow`, { timeoutMs: 200 })).rejects.toThrow(/timed out/);
    await c.close();
  });

  it('does not treat another port of an allow-listed host as allowed', async () => {
    const c = client();
    await expect(c.fetch(`http://127.0.0.1:${canary.port}/`)).rejects.toBeInstanceOf(OutboundRefused);
    await c.close();
  });

  it('classifies public and private addresses', () => {
    expect(isPublicAddress('93.184.216.34')).toBe(true);
    expect(isPublicAddress('2606:4700::1111')).toBe(true);
    for (const a of ['127.0.0.1', '10.0.0.1', '100.64.0.1', '169.254.1.1', '::1', '::ffff:10.0.0.1', 'fe80::1', '0.0.0.0', 'bogus']) {
      expect(isPublicAddress(a), a).toBe(false);
    }
  });

  it('refuses IPv4-compatible IPv6 and every IPv6 address outside global unicast', () => {
    for (const a of [
      '::127.0.0.1',
      '::7f00:1',
      '::a00:1',
      '::8.8.8.8',
      '::2',
      '4000::1',
      'e000::1',
      '100::1',
      '::ffff:0:7f00:1',
      '64:ff9b::808:808',
    ]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
    for (const a of ['2606:4700::1111', '2a00:1450:4001::1', '::ffff:8.8.8.8']) expect(isPublicAddress(a), a).toBe(true);
  });

  it('refuses http://[::127.0.0.1]/ before any connection', async () => {
    const c = client();
    expect(() => c.check(`http://[::127.0.0.1]:${canary.port}/`)).toThrow(OutboundRefused);
    await expect(c.fetch(`http://[::127.0.0.1]:${canary.port}/`, { timeoutMs: 2000 })).rejects.toBeInstanceOf(OutboundRefused);
    await c.close();
    expect(canary.connections()).toBe(0);
  });
});
