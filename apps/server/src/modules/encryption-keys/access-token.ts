// Access tokens of avatars protected by an encryption key: compact JWS with ES256 (ECDSA P-256,
// SHA-256, raw r||s signature), claims sub = avatar id, jti = single-use id, exp ≤ iat + 1 h.
// The format is documented in docs/api.md "Encryption keys".
import { createPrivateKey, createPublicKey, randomUUID, sign, verify } from 'node:crypto';
import { ACCESS_TOKEN_MAX_TTL_S } from '@parla/shared/schemas/encryption-keys';

export interface AccessTokenClaims {
  sub: string;
  jti: string;
  exp: number;
  iat?: number;
  [claim: string]: unknown;
}

/** Clock skew tolerated between the signer and this server. */
export const ACCESS_TOKEN_SKEW_S = 60;

const b64 = (v: string | Buffer) => Buffer.from(v).toString('base64url');

export function signEs256(claims: AccessTokenClaims, privateKeyPem: string, kid?: string): string {
  const head = b64(JSON.stringify({ alg: 'ES256', typ: 'JWT', ...(kid ? { kid } : {}) }));
  const body = b64(JSON.stringify(claims));
  const sig = sign('sha256', Buffer.from(`${head}.${body}`), { key: createPrivateKey(privateKeyPem), dsaEncoding: 'ieee-p1363' });
  return `${head}.${body}.${b64(sig)}`;
}

/** A fresh token for an avatar: lives ttlSeconds (at most one hour). */
export function newAccessToken(privateKeyPem: string, avatarId: string, nowSeconds: number, ttlSeconds: number, kid?: string): string {
  const ttl = Math.max(1, Math.min(ttlSeconds, ACCESS_TOKEN_MAX_TTL_S));
  return signEs256({ sub: avatarId, jti: randomUUID(), iat: nowSeconds, exp: nowSeconds + ttl }, privateKeyPem, kid);
}

export type AccessTokenCheck = { ok: true; claims: AccessTokenClaims } | { ok: false; reason: string };

/** Checks signature, algorithm and times. Single use (jti) is the caller's: it needs storage. */
export function checkEs256(token: string, publicKeyPem: string, nowSeconds: number): AccessTokenCheck {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p))) return { ok: false, reason: 'malformed' };
  const [head, body, sig] = parts as [string, string, string];
  let header: { alg?: unknown };
  let claims: AccessTokenClaims;
  try {
    header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: unknown };
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as AccessTokenClaims;
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  // Only ES256: never 'none', never an HMAC keyed with the public key.
  if (header.alg !== 'ES256') return { ok: false, reason: 'algorithm' };
  const signature = Buffer.from(sig, 'base64url');
  if (signature.length !== 64) return { ok: false, reason: 'signature' };
  let valid = false;
  try {
    valid = verify('sha256', Buffer.from(`${head}.${body}`), { key: createPublicKey(publicKeyPem), dsaEncoding: 'ieee-p1363' }, signature);
  } catch {
    valid = false;
  }
  if (!valid) return { ok: false, reason: 'signature' };
  if (!claims || typeof claims !== 'object') return { ok: false, reason: 'malformed' };
  if (typeof claims.sub !== 'string' || !claims.sub) return { ok: false, reason: 'sub' };
  if (typeof claims.jti !== 'string' || !claims.jti || claims.jti.length > 200) return { ok: false, reason: 'jti' };
  if (typeof claims.exp !== 'number' || !Number.isFinite(claims.exp)) return { ok: false, reason: 'exp' };
  if (claims.exp <= nowSeconds - ACCESS_TOKEN_SKEW_S) return { ok: false, reason: 'expired' };
  if (claims.exp > nowSeconds + ACCESS_TOKEN_MAX_TTL_S + ACCESS_TOKEN_SKEW_S) return { ok: false, reason: 'lifetime' };
  if (typeof claims.iat === 'number' && claims.iat > nowSeconds + ACCESS_TOKEN_SKEW_S) return { ok: false, reason: 'iat' };
  if (typeof claims.nbf === 'number' && claims.nbf > nowSeconds + ACCESS_TOKEN_SKEW_S) return { ok: false, reason: 'nbf' };
  return { ok: true, claims };
}
