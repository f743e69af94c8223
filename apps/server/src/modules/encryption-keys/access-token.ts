// Access tokens of avatars protected by an encryption key: compact JWS with ES256 (ECDSA P-256,
// SHA-256, raw r||s signature), claims sub = avatar id, jti = single-use id, exp ≤ iat + 1 h.
// The format is documented in docs/api.md "Encryption keys".
import { createPrivateKey, createPublicKey, randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
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

/** Signed with `jose` (decision 009); the key is a PEM that node:crypto reads (SEC1 or PKCS#8). */
export function signEs256(claims: AccessTokenClaims, privateKeyPem: string, kid?: string): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT', ...(kid ? { kid } : {}) })
    .sign(createPrivateKey(privateKeyPem));
}

/** A fresh token for an avatar: lives ttlSeconds (at most one hour). */
export function newAccessToken(
  privateKeyPem: string,
  avatarId: string,
  nowSeconds: number,
  ttlSeconds: number,
  kid?: string,
): Promise<string> {
  const ttl = Math.max(1, Math.min(ttlSeconds, ACCESS_TOKEN_MAX_TTL_S));
  return signEs256({ sub: avatarId, jti: randomUUID(), iat: nowSeconds, exp: nowSeconds + ttl }, privateKeyPem, kid);
}

export type AccessTokenCheck = { ok: true; claims: AccessTokenClaims } | { ok: false; reason: string };

/** Why jose refused a token, in the words of the log. */
function reasonOf(err: unknown): string {
  if (err instanceof errors.JOSEAlgNotAllowed) return 'algorithm';
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'signature';
  if (err instanceof errors.JWTExpired) return 'expired';
  if (err instanceof errors.JWTClaimValidationFailed) return err.claim;
  return 'malformed';
}

/**
 * Checks signature, algorithm and times with jose: only ES256 (never 'none', never an HMAC keyed
 * with the public key), exp required, nbf and iat within the skew, a lifetime of at most an hour.
 * Single use (jti) is the caller's: it needs storage.
 */
export async function checkEs256(token: string, publicKeyPem: string, nowSeconds: number): Promise<AccessTokenCheck> {
  let key;
  try {
    key = createPublicKey(publicKeyPem);
  } catch {
    return { ok: false, reason: 'key' };
  }
  let claims: AccessTokenClaims;
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['ES256'],
      currentDate: new Date(nowSeconds * 1000),
      clockTolerance: ACCESS_TOKEN_SKEW_S,
      requiredClaims: ['exp', 'sub', 'jti'],
    });
    claims = payload as AccessTokenClaims;
  } catch (err) {
    return { ok: false, reason: reasonOf(err) };
  }
  if (typeof claims.sub !== 'string' || !claims.sub) return { ok: false, reason: 'sub' };
  if (typeof claims.jti !== 'string' || !claims.jti || claims.jti.length > 200) return { ok: false, reason: 'jti' };
  if (claims.exp > nowSeconds + ACCESS_TOKEN_MAX_TTL_S + ACCESS_TOKEN_SKEW_S) return { ok: false, reason: 'lifetime' };
  if (typeof claims.iat === 'number' && claims.iat > nowSeconds + ACCESS_TOKEN_SKEW_S) return { ok: false, reason: 'iat' };
  return { ok: true, claims };
}
