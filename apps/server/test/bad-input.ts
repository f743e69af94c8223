// Bad-input properties: throw malformed bodies at an endpoint and require a clear 4xx in the
// contract's error shape, never a 5xx. Reused by every feature's tests and the route matrix.
import fc from 'fast-check';
import { expect } from 'vitest';
import type { TestServer } from './harness';

const hugeString = fc.constantFrom('x'.repeat(100_000), '€'.repeat(50_000), '\u0000'.repeat(1000));
const weirdString = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('', ' ', '\ud800', '<script>', "' or 1=1 --", '../../etc/passwd'), hugeString);
const scalar = fc.oneof(weirdString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('v'), { maxLength: 4 }), fc.dictionary(fc.string(), tie('v'), { maxKeys: 4 })),
})).v;

/** Objects shaped like the real body (its keys) with values of every wrong kind, plus extras. */
export function bodiesLike(keys: string[]): fc.Arbitrary<unknown> {
  const shaped = fc.record(Object.fromEntries(keys.map((k) => [k, value])), { requiredKeys: [] });
  const withExtras = fc.tuple(shaped, fc.dictionary(fc.string(), value, { maxKeys: 3 })).map(([a, b]) => ({ ...b, ...a }));
  return fc.oneof(shaped, withExtras, value);
}

const RAW_BODIES = [
  '',
  '{',
  'null',
  '[]',
  '"text"',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":' + '['.repeat(5000) + ']'.repeat(5000) + '}',
  'not json at all',
];

export interface Target {
  method: 'POST' | 'PUT' | 'GET' | 'DELETE';
  url: string;
  keys: string[];
  token?: string;
}

function expectContractError(status: number, body: string, label: string): void {
  expect(status, `${label} → ${status} ${body.slice(0, 300)}`).toBeLessThan(500);
  if (status >= 400) {
    const parsed = JSON.parse(body) as { status?: unknown; code?: unknown; errors?: unknown };
    expect(parsed.status, label).toBe('ERROR');
    expect(typeof parsed.code, label).toBe('number');
    expect(Array.isArray(parsed.errors) && parsed.errors.every((e) => typeof e === 'string'), label).toBe(true);
  }
}

/** Runs the property for one endpoint: fast-check bodies, raw bodies and wrong content types. */
export async function assertNoServerErrors(server: TestServer, target: Target, runs = 60): Promise<number> {
  let tried = 0;
  await fc.assert(
    fc.asyncProperty(bodiesLike(target.keys), async (body) => {
      tried++;
      const res = await server.inject({ method: target.method, url: target.url, token: target.token ?? null, payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      expectContractError(res.statusCode, res.body, `${target.method} ${target.url} ${JSON.stringify(body).slice(0, 200)}`);
    }),
    { numRuns: runs },
  );
  for (const raw of RAW_BODIES) {
    for (const type of ['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      tried++;
      const res = await server.inject({ method: target.method, url: target.url, token: target.token ?? null, payload: raw, headers: { 'content-type': type } });
      expectContractError(res.statusCode, res.body, `${target.method} ${target.url} [${type}] ${raw.slice(0, 60)}`);
    }
  }
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  return tried;
}
