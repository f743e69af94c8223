// Secrets: a canary in every secret field (the avatar's REST key, JSON key, billing header and
// pipeline keys, the OAuth client secret; the default encryption key's private key is watched
// too, as everything the server encrypts is), then every route called as the owner and as
// another account. The harness fails this file (and every other test file) when a watched
// secret appears in a response body or a log line; here we also check they are encrypted at
// rest and that the harness was really watching them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canarySecret, createTestServer, type TestServer } from '../harness';
import { asParty, ROUTES } from './route-table';
import { snapshot, tableNames } from './snapshot';
import { buildWorld, type World } from './world';

let server: TestServer;
let world: World;

beforeAll(async () => {
  server = await createTestServer();
  world = await buildWorld(server);
}, 120_000);
afterAll(() => server.close());

describe('secrets', () => {
  it('are stored encrypted: no canary appears in any table', async () => {
    const rows = await snapshot(server, await tableNames(server));
    const found: string[] = [];
    for (const [field, canary] of Object.entries(world.victim.canaries)) {
      for (const [table, text] of rows) if (text.includes(canary)) found.push(`${field} in ${table}`);
    }
    expect(found).toEqual([]);
    // The default key's private key and every canary went through the encryption the harness watches.
    await server.inject({ method: 'GET', url: '/api/enc/list', token: world.victim.token });
    expect(server.watchedSecrets()).toBeGreaterThanOrEqual(Object.keys(world.victim.canaries).length + 1);
  });

  it('never appear in any answer of any route, to the owner or to another account, nor in a log line', async () => {
    let calls = 0;
    const asOwner: World = { ...world, attacker: world.victim };
    for (const [route, c] of Object.entries(ROUTES)) {
      for (const w of [asOwner, world]) {
        const who = c.kind === 'admin' ? world.admin : w.attacker;
        const reqs = [...(c.sample ? [c.sample(w)] : []), ...(c.list ? [c.list(w)] : [])];
        for (const req of reqs) {
          const res = await server.inject(asParty(c.kind, who, req));
          calls++;
          // The player's pages answer 503 until the player is built.
          if (!(res.statusCode === 503 && res.body.includes('has not been built'))) expect(res.statusCode, `${route} ${res.body.slice(0, 200)}`).toBeLessThan(500);
        }
      }
    }
    // The owner's own views of the avatar that holds the canaries.
    const v = world.victim;
    for (const url of [`/config-files/avatars/${v.avatar.id}/avatar.json`, `/config-files/avatars/${v.avatar.id}/client.json`, '/api/avatar/list', '/api/list_oauthapp']) {
      const res = await server.inject({ method: 'GET', url, token: v.token });
      expect(res.statusCode, url).toBe(200);
      calls++;
    }
    const pub = await server.inject({ method: 'GET', url: `/api/public/avatar/${v.avatar.id}?token=${v.avatar.token}` });
    expect(pub.statusCode).toBe(200);
    console.log(`secrets: ${Object.keys(world.victim.canaries).length} canaries planted, ${server.watchedSecrets()} encrypted values watched, ${calls} answers searched, leaks ${server.leaks().length}`);
    expect(server.leaks()).toEqual([]);
    expect(calls).toBeGreaterThan(60);
  });

  it('are caught by the harness when one does leak (the watch is not blind)', async () => {
    const other = await createTestServer();
    const stored = 'stored-secret-' + canarySecret('x').slice(-12);
    other.ctx.secrets.encrypt(stored);
    // The 404 answer repeats the path: a leak of both a watched secret and a planted canary.
    await other.inject({ method: 'GET', url: `/no-such/${stored}` });
    other.ctx.log.warn({ value: canarySecret('log') }, 'a careless log line');
    expect(other.leaks()).toHaveLength(2);
    await expect(other.close()).rejects.toThrow(/Secrets leaked/);
  });
});
