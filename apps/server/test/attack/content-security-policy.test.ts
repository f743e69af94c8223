// Content-Security-Policy of the pages (issue 33, item 8): the portal sent none and the player's
// had no script-src, so an injected <script> (inline or from any host) would have run. The real
// plugins over a real (temporary) build directory: the portal's pages and the chat widget, the
// player's avatar page (allowed websites, any site, unknown avatar) and its preview, each with a
// script-src that allows neither inline code nor eval nor other hosts, and framing rules as before.
// When the portal and the player are built (CI builds before its PostgreSQL pass), their real
// index.html files are checked too: no inline script, which the policy would block.
// See docs/decisions/412-sandbox-caps-intrinsics-and-connection-caps.md.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../accounts';
import { createTestServer, type TestServer } from '../harness';
import { save } from '../avatar-requests';
import { registerSpa, WEB_DIST } from '../../src/plugins/spa';
import { PLAYER_DIST, playerRoutes } from '../../src/modules/player/player.routes';

let server: TestServer;
let portal: FastifyInstance;
let player: FastifyInstance;
let anywhere: string;
let listed: string;

beforeAll(async () => {
  server = await createTestServer();
  const owner = await createCustomer(server, 'csp');
  const appearance = (await server.inject({ method: 'GET', url: '/api/catalogue/avatars' }))
    .json()
    .avatars.find((a: { type: string }) => a.type === '2d');
  anywhere = (await save(server, owner.token, { name: 'Anywhere', dhType: appearance.type, appearanceId: appearance.id })).json().agent.id;
  listed = (
    await save(server, owner.token, {
      name: 'Listed',
      dhType: appearance.type,
      appearanceId: appearance.id,
      allowedOrigins: ['https://shop.example.com'],
    })
  ).json().agent.id;
  const dist = mkdtempSync(join(tmpdir(), 'parla-csp-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="/x/assets/main.js"></script>');
  portal = Fastify();
  await registerSpa(portal, dist);
  player = Fastify();
  await player.register(playerRoutes(server.ctx, dist));
});

afterAll(async () => {
  await portal.close();
  await player.close();
  await server.close();
});

/** The directives of a policy, by name. */
function directives(csp: unknown): Map<string, string[]> {
  expect(typeof csp, 'a content-security-policy header').toBe('string');
  return new Map(
    String(csp)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

/** A script-src that runs only the server's own files (and, for the player, what it names). */
function expectStrictScripts(csp: unknown, where: string) {
  const scripts = directives(csp).get('script-src');
  expect(scripts, `${where}: script-src`).toBeDefined();
  expect(scripts, where).toContain("'self'");
  for (const loose of ["'unsafe-inline'", "'unsafe-eval'", 'data:', '*', 'https:', 'http:'])
    expect(scripts, `${where}: ${loose}`).not.toContain(loose);
  for (const host of scripts!.filter((s) => s.startsWith('https://')))
    expect(new URL(host).pathname.length, `${where}: a whole host allowed (${host})`).toBeGreaterThan(1);
  expect(directives(csp).get('object-src'), where).toEqual(["'none'"]);
}

describe('Content-Security-Policy of the pages', () => {
  it('gives every portal page a strict script-src, framed only by the portal; the chat widget keeps being embeddable', async () => {
    for (const url of ['/react/', '/react/account', '/react/avatars/x']) {
      const res = await portal.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expectStrictScripts(res.headers['content-security-policy'], url);
      expect(directives(res.headers['content-security-policy']).get('frame-ancestors'), url).toEqual(["'self'"]);
    }
    const widget = await portal.inject({ method: 'GET', url: '/react/chatWidget/abc?token=t' });
    expectStrictScripts(widget.headers['content-security-policy'], 'chat widget');
    expect(directives(widget.headers['content-security-policy']).has('frame-ancestors')).toBe(false);
    expect(widget.headers['x-frame-options']).toBeUndefined();
  });

  it("gives the player's pages a strict script-src and keeps their framing rules", async () => {
    const page = (url: string) => player.inject({ method: 'GET', url });
    const any = await page(`/avatar/${anywhere}`);
    expectStrictScripts(any.headers['content-security-policy'], 'any site');
    expect(directives(any.headers['content-security-policy']).has('frame-ancestors')).toBe(false);
    const shop = await page(`/avatar/${listed}`);
    expectStrictScripts(shop.headers['content-security-policy'], 'allowed websites');
    expect(directives(shop.headers['content-security-policy']).get('frame-ancestors')).toEqual(["'self'", 'https://shop.example.com']);
    const unknown = await page('/avatar/00000000-0000-4000-8000-000000000000');
    expectStrictScripts(unknown.headers['content-security-policy'], 'unknown avatar');
    expect(directives(unknown.headers['content-security-policy']).get('frame-ancestors')).toEqual(["'none'"]);
    const preview = await page('/avatar/preview?appearanceId=x');
    expectStrictScripts(preview.headers['content-security-policy'], 'preview');
  });

  it('finds no inline script in the built portal and player pages, which the policy would block', () => {
    for (const dist of [WEB_DIST, PLAYER_DIST]) {
      const file = join(dist, 'index.html');
      if (!existsSync(file)) continue;
      const html = readFileSync(file, 'utf8');
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
      expect(scripts.length, file).toBeGreaterThan(0);
      for (const [, attrs, body] of scripts) {
        expect(attrs, `${file}: a script without src`).toMatch(/\bsrc=/);
        expect(body!.trim(), file).toBe('');
      }
      expect(html, `${file}: an inline event handler`).not.toMatch(/\son[a-z]+=/i);
    }
  });
});
