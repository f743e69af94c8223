// Load: the mixed authenticated read API at a fixed rate over real sockets (autocannon), with zero
// errors; the p50/p99 it prints are read against docs/reliability.md's budget, not asserted (tests
// do not assert timings: a busy CI machine would fail a healthy server); and the sign-in endpoint flooded
// from one address, limited before any password is hashed (passwordHashCount()).
// 10 s by default; ATTACK_FULL=1 holds the rate for 60 s.
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordHashCount } from '../../src/lib/passwords';
import { createTestServer, TEST_APP_KEY, type TestServer } from '../harness';
import { buildWorld, type World } from './world';

const FULL = Boolean(process.env.ATTACK_FULL);
const SECONDS = FULL ? 60 : 10;
const RATE = 40;

let server: TestServer;
let world: World;
let base: string;

beforeAll(async () => {
  server = await createTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: '30' });
  world = await buildWorld(server);
  base = await server.listen();
}, 120_000);
afterAll(() => server.close());

function run(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

describe('load', () => {
  it(
    `holds ${RATE} mixed authenticated reads per second for ${SECONDS} s with no error and every request answered`,
    async () => {
      const a = world.attacker;
      const session = { authorization: `Bearer ${TEST_APP_KEY} ${a.token}` };
      const jwt = { authorization: `Bearer ${a.jwt}`, 'content-type': 'application/json' };
      const requests: autocannon.Request[] = [
        { method: 'GET', path: '/api/avatar/list', headers: session },
        { method: 'GET', path: '/api/account_info', headers: session },
        { method: 'GET', path: '/api/enc/list', headers: session },
        { method: 'GET', path: '/api/functions', headers: session },
        { method: 'GET', path: '/api/list_oauthapp', headers: session },
        { method: 'GET', path: `/config-files/avatars/${a.avatar.id}/avatar.json`, headers: session },
        { method: 'GET', path: '/kb/v1/collections', headers: jwt },
        { method: 'GET', path: `/kb/v1/collections/${a.collectionId}/items`, headers: jwt },
        { method: 'POST', path: '/kb/v1/search', headers: jwt, body: JSON.stringify({ collection_ids: [a.collectionId], query: 'hello' }) },
        { method: 'GET', path: `/api/public/avatar/${a.avatar.id}?token=${a.avatar.token}` },
        { method: 'GET', path: '/api/catalogue/avatars' },
        {
          method: 'POST',
          path: '/api/list_my_online_users',
          headers: { ...session, 'content-type': 'application/json' },
          body: JSON.stringify({ mode: 'get' }),
        },
        {
          method: 'POST',
          path: '/api/list_my_latency',
          headers: { ...session, 'content-type': 'application/json' },
          body: JSON.stringify({ mode: 'get' }),
        },
      ];
      const result = await run({ url: base, connections: 4, overallRate: RATE, duration: SECONDS, requests });
      const summary = `load: ${result.requests.total} requests in ${SECONDS} s (${RATE}/s asked), p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms, errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx}`;
      console.log(summary);
      expect(result.errors + result.timeouts + result.non2xx, summary).toBe(0);
      // Every answer was a 2xx, and there were answers.
      expect(result['2xx'], summary).toBe(result.requests.total);
      expect(result.requests.total, summary).toBeGreaterThan(0);
    },
    (SECONDS + 60) * 1000,
  );

  it('limits a sign-in flood from one address before any password is hashed', async () => {
    const hashes = passwordHashCount();
    const statuses = new Map<number, number>();
    const result = await run({
      url: `${base}/api/login`,
      connections: 10,
      amount: 400,
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_APP_KEY}`, 'content-type': 'application/json' },
      requests: [
        {
          setupRequest: (req) => ({
            ...req,
            body: JSON.stringify({ email: `flood${Math.random()}@example.com`, password: 'guess number one' }),
          }),
        },
      ],
    });
    const counted = passwordHashCount() - hashes;
    for (const [code, s] of Object.entries(result.statusCodeStats ?? {})) statuses.set(Number(code), (s as { count: number }).count);
    console.log(
      `login flood: ${result.requests.total} sign-ins from one address, statuses ${JSON.stringify(Object.fromEntries(statuses))}, password hashes ${counted}`,
    );
    expect(result.requests.total).toBe(400);
    expect(statuses.get(429) ?? 0).toBeGreaterThanOrEqual(370);
    // 30 per minute per address (AUTH_RATE_LIMIT_PER_MINUTE): the rest never reach argon2.
    expect(counted).toBeLessThanOrEqual(30);
    expect(statuses.get(500) ?? 0).toBe(0);
  }, 60_000);
});
