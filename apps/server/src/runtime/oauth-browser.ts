// Binds an OAuth gate sign-in to the browser that started it (issue 33, item 6; decision 011).
// The start sets a cookie holding a random secret whose hash travels in the signed state; the
// callback is refused unless the same browser brings the cookie back. A callback link made in
// the attacker's browser and opened in the victim's (login CSRF) finds no cookie.
//
// Hand-written rather than @fastify/cookie: that plugin (and the `cookie` package it uses) needs
// Node 22, and this is one cookie of base64url characters that needs no escaping.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hashToken } from '../lib/tokens';

const PREFIX = 'parla_oauth_';
const NONCE = /^[0-9a-f]{8,64}$/;

/** The callback's path under the public URL: the cookie goes only there. */
function cookiePath(publicUrl: string): string {
  return `${new URL(publicUrl).pathname.replace(/\/+$/, '')}/api/oauth/callback`;
}

function attributes(publicUrl: string, maxAgeS: number): string {
  const secure = new URL(publicUrl).protocol === 'https:' ? '; Secure' : '';
  return `Path=${cookiePath(publicUrl)}; Max-Age=${maxAgeS}; HttpOnly; SameSite=Lax${secure}`;
}

/** A new binding for the sign-in with this nonce: the secret's hash for the state, and the
 *  Set-Cookie header for the browser. One cookie per sign-in, so two tabs do not clash. */
export function newBrowserBinding(publicUrl: string, nonce: string, ttlMs: number): { browserHash: string; setCookie: string } {
  if (!NONCE.test(nonce)) throw new Error('OAuth state nonce must be hex');
  const secret = randomBytes(32).toString('base64url');
  return { browserHash: hashToken(secret), setCookie: `${PREFIX}${nonce}=${secret}; ${attributes(publicUrl, Math.floor(ttlMs / 1000))}` };
}

/** The Set-Cookie header that drops a sign-in's cookie once its callback came. */
export function clearBrowserBinding(publicUrl: string, nonce: string): string {
  return `${PREFIX}${nonce}=; ${attributes(publicUrl, 0)}`;
}

/** Whether the request's cookies hold the secret of this sign-in. */
export function isSameBrowser(cookieHeader: string | undefined, nonce: string, browserHash: string): boolean {
  if (!cookieHeader || !NONCE.test(nonce) || !browserHash) return false;
  const name = `${PREFIX}${nonce}=`;
  const pair = cookieHeader
    .split(';')
    .map((p) => p.trim())
    .find((p) => p.startsWith(name));
  if (!pair) return false;
  const given = Buffer.from(hashToken(pair.slice(name.length)));
  const expected = Buffer.from(browserHash);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
