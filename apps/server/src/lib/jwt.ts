// Compact HS256 JWTs for the knowledge API (short lived, bound to the issuing session).
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface JwtClaims {
  sub: string;
  sid: string;
  iat: number;
  exp: number;
  [key: string]: unknown;
}

const b64 = (v: string | Buffer) => Buffer.from(v).toString('base64url');

export function signHs256(claims: JwtClaims, key: Buffer): string {
  const head = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64(JSON.stringify(claims));
  const sig = createHmac('sha256', key).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${sig}`;
}

/** Returns the claims of a valid, unexpired token, or null. */
export function verifyHs256(token: string, key: Buffer, nowSeconds: number): JwtClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [head, body, sig] = parts as [string, string, string];
  const expected = createHmac('sha256', key).update(`${head}.${body}`).digest();
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: unknown };
    if (header.alg !== 'HS256') return null;
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as JwtClaims;
    if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string' || typeof claims.exp !== 'number') return null;
    return claims.exp > nowSeconds ? claims : null;
  } catch {
    return null;
  }
}
