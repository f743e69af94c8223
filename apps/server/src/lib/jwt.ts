// Compact HS256 JWTs for the knowledge API (short lived, bound to the issuing session), signed and
// checked with `jose` (decision 009): only HS256 is accepted, and an expired token is refused.
import { jwtVerify, SignJWT } from 'jose';

export interface JwtClaims {
  sub: string;
  sid: string;
  iat: number;
  exp: number;
  [key: string]: unknown;
}

export function signHs256(claims: JwtClaims, key: Buffer): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key);
}

/** Returns the claims of a valid, unexpired token, or null. */
export async function verifyHs256(token: string, key: Buffer, nowSeconds: number): Promise<JwtClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: new Date(nowSeconds * 1000) });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.exp !== 'number') return null;
    return payload as JwtClaims;
  } catch {
    return null;
  }
}
