// Bad-input properties: throw malformed bodies at an endpoint and require a clear 4xx in the
// contract's error shape, never a 5xx. Reused by every feature's tests and the route matrix.
import fc from 'fast-check';
import { z } from 'zod';
import { expect } from 'vitest';
import type { TestServer } from './harness';

const hugeString = fc.constantFrom('x'.repeat(100_000), '€'.repeat(50_000), '\u0000'.repeat(1000));
const weirdString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('', ' ', '\ud800', '<script>', "' or 1=1 --", '../../etc/passwd'),
  hugeString,
);
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
  /** Instead of the token: these headers (the knowledge API's JWT) and no application key. */
  headers?: Record<string, string>;
}

function auth(target: Pick<Target, 'token' | 'headers'>) {
  return target.headers ? { appKey: null, token: null } : { token: target.token ?? null };
}

/** The player's page (/avatar/{id}) answers an avatar that is not found with its own HTML page
 *  and 404, the player showing "not available" (docs/decisions/206-one-avatar-id-rule.md). */
const isPlayerPage = (status: number, body: string, label: string) =>
  status === 404 && /^GET \/avatar\//.test(label) && /^<!doctype html>/i.test(body);

function expectContractError(status: number, body: string, label: string): void {
  expect(status, `${label} → ${status} ${body.slice(0, 300)}`).toBeLessThan(500);
  if (status >= 400 && !isPlayerPage(status, body, label)) {
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
      const res = await server.inject({
        method: target.method,
        url: target.url,
        ...auth(target),
        payload: JSON.stringify(body),
        headers: { ...target.headers, 'content-type': 'application/json' },
      });
      expectContractError(res.statusCode, res.body, `${target.method} ${target.url} ${JSON.stringify(body).slice(0, 200)}`);
    }),
    { numRuns: runs },
  );
  for (const raw of RAW_BODIES) {
    for (const type of ['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      tried++;
      const res = await server.inject({
        method: target.method,
        url: target.url,
        ...auth(target),
        payload: raw,
        headers: { ...target.headers, 'content-type': type },
      });
      expectContractError(res.statusCode, res.body, `${target.method} ${target.url} [${type}] ${raw.slice(0, 60)}`);
    }
  }
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  return tried;
}

const urlPart = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '',
    '__proto__',
    'constructor',
    '..',
    '../../etc/passwd',
    '%00',
    '-1',
    '0',
    '1e309',
    'NaN',
    'null',
    '9'.repeat(400),
    'x'.repeat(5000),
    '\ud800',
    "' or 1=1 --",
  ),
);
const encode = (v: string) => {
  try {
    return encodeURIComponent(v);
  } catch {
    return '%ED%A0%80';
  }
};

/** Runs the property for a URL template: weird path parameters (`:name`) and query strings
 *  (the schema's keys and others, repeated keys, `__proto__`), raw and percent-encoded. */
export async function assertNoServerErrorsInUrl(
  server: TestServer,
  target: Omit<Target, 'keys'> & { queryKeys: string[] },
  runs = 40,
): Promise<number> {
  let tried = 0;
  const keys = fc.oneof(
    fc.constantFrom(...target.queryKeys, '__proto__', 'constructor', '__proto__[polluted]'),
    fc.string({ maxLength: 12 }),
  );
  await fc.assert(
    fc.asyncProperty(
      fc.array(urlPart, { minLength: 4, maxLength: 4 }),
      fc.array(fc.tuple(keys, urlPart), { maxLength: 5 }),
      fc.boolean(),
      async (params, query, raw) => {
        tried++;
        let i = 0;
        const path = target.url.replace(/:(\w+)/g, () => encode(params[i++ % params.length]!));
        const qs = query.map(([k, v]) => `${encode(k)}=${raw ? v.replace(/[#\s&]/g, '') : encode(v)}`).join('&');
        const url = qs ? `${path}?${qs}` : path;
        let res;
        try {
          res = await server.inject({ method: target.method, url, ...auth(target), headers: { ...target.headers } });
        } catch (err) {
          // light-my-request refuses some URLs before they reach the server (an invalid one): not a server answer.
          if (err instanceof Error && /invalid|URL/i.test(err.message)) return;
          throw err;
        }
        expectContractError(res.statusCode, res.body, `${target.method} ${url.slice(0, 200)}`);
      },
    ),
    { numRuns: runs },
  );
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  return tried;
}

/** The property names a route's zod schema accepts: at the top level, and anywhere inside
 *  (for id detection). Unions and nested objects are walked through their JSON Schema. */
export function schemaKeys(schema: unknown): { top: string[]; all: string[] } {
  if (!schema || typeof schema !== 'object' || !('_zod' in schema)) return { top: [], all: [] };
  let json: unknown;
  try {
    json = z.toJSONSchema(schema as z.ZodType, { unrepresentable: 'any', io: 'input' });
  } catch {
    return { top: [], all: [] };
  }
  const all = new Set<string>();
  const top = new Set<string>();
  const walk = (node: unknown, depth: number) => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, depth));
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (o.properties && typeof o.properties === 'object') {
      for (const [k, v] of Object.entries(o.properties)) {
        all.add(k);
        if (depth === 0) top.add(k);
        walk(v, depth + 1);
      }
    }
    for (const key of ['anyOf', 'oneOf', 'allOf']) if (o[key]) walk(o[key], depth);
    if (o.items) walk(o.items, depth + 1);
    if (o.additionalProperties && typeof o.additionalProperties === 'object') walk(o.additionalProperties, depth + 1);
  };
  walk(json, 0);
  return { top: [...top], all: [...all] };
}
