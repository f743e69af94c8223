import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { save } from '../../../test/avatar-requests';
import { playerRoutes } from './player.routes';

const apps: { close(): Promise<unknown> }[] = [];
let server: TestServer;
let avatarId: string;
beforeAll(async () => {
  server = await createTestServer();
  const owner = await createCustomer(server, 'player-page');
  const appearance = (await server.inject({ method: 'GET', url: '/api/catalogue/avatars' }))
    .json()
    .avatars.find((a: { type: string }) => a.type === '2d');
  const res = await save(server, owner.token, { name: 'Framed anywhere', dhType: appearance.type, appearanceId: appearance.id });
  avatarId = res.json().agent.id as string;
});
afterAll(async () => {
  for (const a of apps) await a.close();
  await server.close();
});

async function appWith(dist: string) {
  const app = Fastify();
  await app.register(playerRoutes(server.ctx, dist));
  apps.push(app);
  return app;
}

function builtPlayer(): string {
  const dist = mkdtempSync(join(tmpdir(), 'parla-player-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(
    join(dist, 'index.html'),
    '<!doctype html><div id="root"></div><script type="module" src="/player/assets/main-abc123.js"></script>',
  );
  writeFileSync(join(dist, 'assets', 'main-abc123.js'), 'console.log(1)');
  return dist;
}

describe('the avatar page', () => {
  it('serves the player for a saved avatar, embeddable in any site (no x-frame-options)', async () => {
    const app = await appWith(builtPlayer());
    const res = await app.inject({ method: 'GET', url: `/avatar/${avatarId}?token=abc&hideChatInput=true` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('id="root"');
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.headers['content-security-policy']).not.toContain('frame-ancestors');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers 404 with a page no site may frame for an avatar that does not exist or an id spelt another way', async () => {
    const app = await appWith(builtPlayer());
    for (const id of ['00000000-0000-4000-8000-000000000000', `${avatarId}%20`, avatarId.toUpperCase(), '6f1c2d3e']) {
      const res = await app.inject({ method: 'GET', url: `/avatar/${id}` });
      expect(res.statusCode, id).toBe(404);
      expect(res.body).toContain('id="root"');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
  });

  it('serves the same page for the editor preview of a catalogue appearance', async () => {
    const app = await appWith(builtPlayer());
    const res = await app.inject({ method: 'GET', url: '/avatar/preview?appearanceId=img-mei' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('id="root"');
  });

  it('frames the preview of a saved avatar only where the avatar itself may be framed', async () => {
    const app = await appWith(builtPlayer());
    const owner = await createCustomer(server, 'player-preview');
    const appearance = (await server.inject({ method: 'GET', url: '/api/catalogue/avatars' })).json().avatars[0];
    const saved = await save(server, owner.token, {
      name: 'Shop only',
      dhType: appearance.type,
      appearanceId: appearance.id,
      allowedOrigins: ['https://shop.example.com'],
    });
    const shopOnly = saved.json().agent.id as string;
    const listed = await app.inject({ method: 'GET', url: `/avatar/preview?avatarId=${shopOnly}&appearanceId=img-mei` });
    expect(listed.statusCode).toBe(200);
    expect(listed.headers['content-security-policy']).toContain("frame-ancestors 'self' https://shop.example.com");
    const anywhere = await app.inject({ method: 'GET', url: `/avatar/preview?avatarId=${avatarId}&appearanceId=img-mei` });
    expect(anywhere.headers['content-security-policy']).not.toContain('frame-ancestors');
    for (const id of ['00000000-0000-4000-8000-000000000000', avatarId.toUpperCase(), 'x']) {
      const res = await app.inject({ method: 'GET', url: `/avatar/preview?avatarId=${encodeURIComponent(id)}&appearanceId=img-mei` });
      expect(res.statusCode, id).toBe(404);
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
  });

  it('serves the player assets with an immutable cache header', async () => {
    const app = await appWith(builtPlayer());
    const res = await app.inject({ method: 'GET', url: '/player/assets/main-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('says the player is not built yet instead of failing', async () => {
    const app = await appWith(mkdtempSync(join(tmpdir(), 'parla-empty-')));
    const res = await app.inject({ method: 'GET', url: '/avatar/x' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build');
  });
});
