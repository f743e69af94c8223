// The end user's identity from an OAuth partner's OpenID id_token (decision 624, OIDC Core
// 3.1.3.7). The token comes straight from the partner's token endpoint in answer to our code and
// client secret. It is trusted as an identity only when:
// - its signature verifies against the partner's JWKS (the config's JWKS URL, or a partner's
//   well-known one), fetched through the outbound guard and cached; or, without a JWKS URL, the
//   token endpoint is https (3.1.3.7 item 6: TLS validates the issuer in place of a signature);
// - `iss` is the config's issuer (or, none configured, an https URL on the sign-in or token
//   server's origin), `aud` holds our client id (and `azp` is it when there are several), `exp`
//   has not passed, `iat` is present, and `nonce` is the one we sent in this sign-in.
// Anything else is no identity: the sign-in still opens a conversation, but keys no memory.
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { AppContext } from '../context';

interface IdentityApp {
  appId: number;
  clientId: string;
  oauthURL: string;
  tokenIssueURL: string;
  issuer: string | null;
  jwksURL: string | null;
}

const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
const CLOCK_TOLERANCE_S = 60;
const JWKS_TTL_MS = 10 * 60_000;
const JWKS_MAX_BYTES = 256 * 1024;

type KeySet = ReturnType<typeof createLocalJWKSet>;
const keySets = new WeakMap<AppContext, Map<string, { at: number; keys: KeySet }>>();

async function keySet(ctx: AppContext, url: string, fresh: boolean): Promise<KeySet> {
  const cache = keySets.get(ctx) ?? new Map<string, { at: number; keys: KeySet }>();
  keySets.set(ctx, cache);
  const now = ctx.now().getTime();
  const hit = cache.get(url);
  if (hit && !fresh && now - hit.at < JWKS_TTL_MS) return hit.keys;
  const res = await ctx.outbound.fetchIdempotent('JWKS', url, {
    headers: { accept: 'application/json' },
    maxBytes: JWKS_MAX_BYTES,
    timeoutMs: 10_000,
  });
  if (res.status !== 200) throw new Error(`the JWKS URL answered HTTP ${res.status}`);
  const keys = createLocalJWKSet(res.json<JSONWebKeySet>());
  cache.set(url, { at: now, keys });
  return keys;
}

function issuerAccepted(app: IdentityApp, iss: string | undefined): boolean {
  if (!iss) return false;
  if (app.issuer) return iss === app.issuer;
  try {
    const u = new URL(iss);
    return u.protocol === 'https:' && [app.oauthURL, app.tokenIssueURL].some((s) => new URL(s).origin === u.origin);
  } catch {
    return false;
  }
}

function claimsAccepted(ctx: AppContext, app: IdentityApp, claims: JWTPayload, nonce: string): string | null {
  const now = Math.floor(ctx.now().getTime() / 1000);
  const aud = Array.isArray(claims.aud) ? claims.aud : claims.aud ? [claims.aud] : [];
  if (!issuerAccepted(app, claims.iss)) return 'iss';
  if (!aud.includes(app.clientId) || (aud.length > 1 && claims.azp !== app.clientId)) return 'aud';
  if (typeof claims.exp !== 'number' || claims.exp + CLOCK_TOLERANCE_S < now) return 'exp';
  if (typeof claims.iat !== 'number') return 'iat';
  if (claims.nonce !== nonce) return 'nonce';
  if (typeof claims.sub !== 'string' || !claims.sub || claims.sub.length > 255) return 'sub';
  return null;
}

async function verifiedClaims(ctx: AppContext, app: IdentityApp, idToken: string): Promise<JWTPayload> {
  if (!app.jwksURL) {
    if (new URL(app.tokenIssueURL).protocol !== 'https:') throw new Error('no JWKS URL and the token endpoint is not https');
    return decodeJwt(idToken);
  }
  const options = { algorithms: ALGORITHMS, currentDate: ctx.now(), clockTolerance: CLOCK_TOLERANCE_S };
  try {
    return (await jwtVerify(idToken, await keySet(ctx, app.jwksURL, false), options)).payload;
  } catch (err) {
    // A key the cached set does not hold: the partner may have rotated its keys.
    if ((err as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY') throw err;
    return (await jwtVerify(idToken, await keySet(ctx, app.jwksURL, true), options)).payload;
  }
}

/** `oauth:{appId}:{sub}` of a verified id_token, or null (logged) when it cannot be trusted. */
export async function verifiedSubject(
  ctx: AppContext,
  app: IdentityApp,
  idToken: string | undefined,
  nonce: string,
): Promise<string | null> {
  if (!idToken) return null;
  try {
    const claims = await verifiedClaims(ctx, app, idToken);
    const refused = claimsAccepted(ctx, app, claims, nonce);
    if (refused) throw new Error(`the id_token's ${refused} claim is not acceptable`);
    return `oauth:${app.appId}:${claims.sub}`;
  } catch (err) {
    ctx.log.warn(
      { appId: app.appId, reason: err instanceof Error ? err.message : String(err) },
      'OAuth id_token not verified; the sign-in keys no memory',
    );
    return null;
  }
}
