import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { assertNoServerErrors, bodiesLike } from '../../../test/bad-input';
import { createTestServer, type TestServer } from '../../../test/harness';
import { BOUNDARY, fileOf, multipart, type Part } from '../../../test/avatar-requests';

let server: TestServer;
let owner: TestAccount;

beforeAll(async () => {
  server = await createTestServer();
  owner = await createCustomer(server);
});
afterAll(() => server.close());

const SAVE_KEYS = [
  'id',
  'updated',
  'name',
  'dhType',
  'appearanceId',
  'avatarJson',
  'clientJson',
  'avatarConfigURL',
  'mediaDetails',
  'customData',
  'nlpEngine',
  'dailyLimits',
  'idleTimeout',
  'functions',
];

function expectClearError(status: number, body: string, label: string) {
  expect(status, `${label} → ${status} ${body.slice(0, 300)}`).toBeLessThan(500);
  if (status >= 400) {
    const parsed = JSON.parse(body) as { status?: unknown; code?: unknown; errors?: unknown };
    expect(parsed.status, label).toBe('ERROR');
    expect(typeof parsed.code, label).toBe('number');
    expect(Array.isArray(parsed.errors) && (parsed.errors as unknown[]).length > 0, label).toBe(true);
  }
}

const leftovers = () => {
  const tmp = join(server.ctx.files.root, 'tmp');
  return existsSync(tmp) ? readdirSync(tmp) : [];
};

const magic = fc.constantFrom<'png' | 'mp4' | 'glb' | 'text'>('png', 'mp4', 'glb', 'text');
const part: fc.Arbitrary<Part> = fc.oneof(
  fc.record({
    name: fc.constantFrom('json'),
    value: fc.oneof(
      fc.string(),
      bodiesLike(SAVE_KEYS).map((b) => JSON.stringify(b) ?? 'null'),
    ),
  }),
  fc.record({
    name: fc.oneof(fc.constantFrom('backgroundImage', 'scene', 'avatarPhoto'), fc.string({ maxLength: 12 })),
    value: fc.tuple(magic, fc.integer({ min: 0, max: 300 })).map(([k, n]) => fileOf(k, n)),
    filename: fc.oneof(fc.constant('file.png'), fc.string({ maxLength: 20 })),
  }),
  fc.record({ name: fc.string({ maxLength: 12 }), value: fc.string({ maxLength: 40 }) }),
);

/** Ways to break a well-formed body. */
const corruption = fc.oneof(
  fc.constant((b: Buffer) => b),
  fc.integer({ min: 0, max: 2000 }).map((n) => (b: Buffer) => b.subarray(0, Math.min(n, b.length))),
  fc.constant((b: Buffer) => Buffer.from(b.toString('latin1').replaceAll(BOUNDARY, 'other-boundary'), 'latin1')),
  fc.constant((b: Buffer) => Buffer.from(b.toString('latin1').replace(`--${BOUNDARY}--`, ''), 'latin1')),
  fc.constant((b: Buffer) => Buffer.from(b.toString('latin1').replace('Content-Disposition', 'Content-Dispositio'), 'latin1')),
);

const contentType = fc.constantFrom(
  `multipart/form-data; boundary=${BOUNDARY}`,
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/mixed; boundary=x',
);

describe('malformed saves', () => {
  it('answer a clear 4xx for any broken multipart body or JSON field, never a 5xx, and leave no file behind', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(part, { maxLength: 5 }), corruption, contentType, async (parts, corrupt, type) => {
        runs++;
        const { payload } = multipart(parts);
        const body = corrupt(payload);
        const res = await Promise.race([
          server.inject({
            method: 'POST',
            url: '/api/avatar_v2/add',
            token: owner.token,
            payload: body,
            headers: { 'content-type': type },
          }),
          new Promise<never>((_r, rej) =>
            setTimeout(
              () => rej(new Error(`no answer within 5 s: ${type} ${JSON.stringify(body.toString('latin1').slice(0, 500))}`)),
              5000,
            ),
          ),
        ]);
        expectClearError(res.statusCode, res.body, `${type} ${parts.map((p) => p.name).join(',')}`);
        expect(leftovers()).toEqual([]);
      }),
      { numRuns: 200 },
    );
    expect(runs).toBeGreaterThanOrEqual(200);
  }, 180_000);

  it('says what is wrong: not multipart, no json field, JSON that does not parse', async () => {
    const json = await server.inject({ method: 'POST', url: '/api/avatar_v2/add', token: owner.token, payload: { name: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(json.json().errors[0]).toMatch(/multipart\/form-data/);
    const noJson = await server.inject({
      method: 'POST',
      url: '/api/avatar_v2/add',
      token: owner.token,
      ...multipart([{ name: 'avatarPhoto', value: fileOf('png', 10), filename: 'a.png' }]),
    });
    expect(noJson.statusCode).toBe(400);
    expect(noJson.json().errors[0]).toMatch(/field json/);
    const badJson = await server.inject({
      method: 'POST',
      url: '/api/avatar_v2/add',
      token: owner.token,
      ...multipart([{ name: 'json', value: '{"name": ' }]),
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json().errors).toEqual(['The field json is not valid JSON.']);
    const truncated = multipart([
      { name: 'json', value: '{}' },
      { name: 'avatarPhoto', value: fileOf('png', 5000), filename: 'a.png' },
    ]);
    const cut = await server.inject({
      method: 'POST',
      url: '/api/avatar_v2/add',
      token: owner.token,
      payload: truncated.payload.subarray(0, 3000),
      headers: truncated.headers,
    });
    expect(cut.statusCode).toBe(400);
    // A part without Content-Disposition bigger than the parser's buffer used to stall the request.
    const big = multipart([{ name: 'json', value: 'x'.repeat(40_000) }]);
    const broken = Buffer.from(big.payload.toString('latin1').replace('Content-Disposition', 'Content-Dispositio'), 'latin1');
    const stalled = await server.inject({
      method: 'POST',
      url: '/api/avatar_v2/add',
      token: owner.token,
      payload: broken,
      headers: big.headers,
    });
    expect(stalled.statusCode).toBe(400);
    expect(leftovers()).toEqual([]);
  });

  it('never answer 5xx on the other avatar endpoints', async () => {
    const targets = [
      { method: 'POST' as const, url: '/api/avatar_v2/add', keys: SAVE_KEYS, token: owner.token },
      { method: 'POST' as const, url: '/api/avatar/del', keys: ['agentId', 'mode'], token: owner.token },
      { method: 'POST' as const, url: '/api/list_avatar_users', keys: ['agentId', 'mode'], token: owner.token },
      { method: 'GET' as const, url: '/api/avatar/list', keys: [], token: owner.token },
    ];
    let tried = 0;
    for (const t of targets) tried += await assertNoServerErrors(server, t, 40);
    expect(tried).toBeGreaterThan(200);
    for (const url of [
      '/api/public/avatar/%00',
      '/api/public/avatar/x?token=%ff',
      '/config-files/avatars/x/media/..%2f..%2fetc.png',
      '/config-files/avatars/x/avatar.json',
    ]) {
      const res = await server.inject({ method: 'GET', url, token: owner.token });
      expectClearError(res.statusCode, res.body, url);
    }
  }, 120_000);
});
