// End-user sign-in with an avatar's OAuth partner before a conversation (spec 1 §3 OAuth config:
// oauthURL, tokenIssueURL, callbackURL). The player sends the end user to
// GET /api/oauth/start/{avatarId}?token=…; the partner returns to the product's callback
// /api/oauth/callback/{appId} with a code, which is exchanged at the tokenIssueURL (RFC 6749
// authorization code grant, client secret decrypted in memory only); a single-use grant then
// lets the conversation socket open (…&oauthGrant=…). The state parameter is signed, expires,
// is spent once (oauth_states) and works only in the browser that started the sign-in (a cookie
// whose secret's hash it carries, oauth-browser.ts); the way back obeys one strict path rule
// (@parla/shared/safe-path; issue 33, item 6, decision 011).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sameOriginPath } from '@parla/shared/safe-path';
import type { AppContext } from '../context';
import { hashToken } from '../lib/tokens';
import { AppError } from '../lib/errors';
import { OutboundFailed, OutboundRefused } from '../lib/outbound';
import { appForSignIn } from '../modules/oauth-configs/oauth-configs.service';
import { clearBrowserBinding, isSameBrowser, newBrowserBinding } from './oauth-browser';
import { verifiedSubject } from './oauth-identity';
import {
  deleteGrantsExpiredBefore,
  insertGrant,
  insertOAuthState,
  spendGrant,
  spendOAuthState,
} from './repositories/conversation-grants.repository';

/** The state travels through the partner: ten minutes to sign in. */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;
/** A grant opens one conversation within this time. */
export const OAUTH_GRANT_TTL_MS = 10 * 60_000;

interface State {
  avatarId: string;
  ownerId: string;
  appId: number;
  /** Where the end user goes back to (a path on this server). */
  back: string;
  exp: number;
  nonce: string;
  /** The hash of the secret in the starting browser's cookie. */
  browser: string;
}

function stateKey(ctx: AppContext): Buffer {
  return createHmac('sha256', ctx.jwtKey).update('oauth-state').digest();
}

export function signState(ctx: AppContext, s: State): string {
  const body = Buffer.from(JSON.stringify(s)).toString('base64url');
  const sig = createHmac('sha256', stateKey(ctx)).update(body).digest('base64url');
  return `${body}.${sig}`;
}

export function readState(ctx: AppContext, raw: string): State | null {
  const [body, sig] = raw.split('.');
  if (!body || !sig) return null;
  const expected = createHmac('sha256', stateKey(ctx)).update(body).digest();
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const s = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as State;
    return s.exp > ctx.now().getTime() ? s : null;
  } catch {
    return null;
  }
}

/** The way back: a path on this server by the one strict rule, else the avatar's page. */
function backPath(ctx: AppContext, raw: string | undefined, avatarId: string): string {
  return sameOriginPath(raw, ctx.config.PUBLIC_URL) ?? `/avatar/${encodeURIComponent(avatarId)}`;
}

/** The partner's sign-in URL for an avatar's OAuth app, and the cookie that binds the sign-in
 *  to this browser. */
export async function startUrl(
  ctx: AppContext,
  a: { avatarId: string; ownerId: string; appId: number },
  back: string,
): Promise<{ url: string; setCookie: string }> {
  const app = await appForSignIn(ctx, a.ownerId, a.appId);
  if (!app) throw AppError.notFound('OAuth config');
  const now = ctx.now().getTime();
  const nonce = randomBytes(8).toString('hex');
  const binding = newBrowserBinding(ctx.config.PUBLIC_URL, nonce, OAUTH_STATE_TTL_MS);
  await insertOAuthState(ctx.db, hashToken(nonce), new Date(now + OAUTH_STATE_TTL_MS), new Date(now));
  const state = signState(ctx, {
    ...a,
    back: backPath(ctx, back, a.avatarId),
    exp: now + OAUTH_STATE_TTL_MS,
    nonce,
    browser: binding.browserHash,
  });
  const url = new URL(app.oauthURL);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', app.clientId);
  url.searchParams.set('redirect_uri', app.callbackURL);
  url.searchParams.set('state', state);
  // OpenID: the id_token must carry this sign-in's nonce (decision 624).
  url.searchParams.set('nonce', nonce);
  if (!url.searchParams.has('scope')) url.searchParams.set('scope', app.partner === 'Google' ? 'openid email profile' : 'openid');
  return { url: url.toString(), setCookie: binding.setCookie };
}

const STATE_REFUSED = 'The sign-in link is invalid or has expired. Please start again.';

/** Exchanges the partner's code, stores a grant and answers where the end user goes next (and
 *  the header that drops the sign-in's cookie). The state is checked, bound to this browser and
 *  spent before the code is exchanged, so a replay never reaches the partner. */
export async function finishSignIn(
  ctx: AppContext,
  appId: number,
  code: string,
  rawState: string,
  cookieHeader: string | undefined,
): Promise<{ location: string; clearCookie: string }> {
  const state = readState(ctx, rawState);
  if (!state || state.appId !== appId || !isSameBrowser(cookieHeader, state.nonce, state.browser)) {
    throw AppError.invalidToken(STATE_REFUSED);
  }
  if (!(await spendOAuthState(ctx.db, hashToken(state.nonce), ctx.now()))) throw AppError.invalidToken(STATE_REFUSED);
  const app = await appForSignIn(ctx, state.ownerId, appId);
  if (!app) throw AppError.notFound('OAuth config');
  let res;
  try {
    res = await ctx.outbound.fetch(app.tokenIssueURL, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: app.callbackURL,
        client_id: app.clientId,
        client_secret: app.clientSecret,
      }).toString(),
    });
  } catch (err) {
    // A token URL the outbound guard refuses (a private address) or that cannot be reached.
    if (!(err instanceof OutboundRefused || err instanceof OutboundFailed)) throw err;
    ctx.log.info({ appId, reason: err.message }, 'OAuth code exchange failed');
    throw AppError.unauthenticated('The sign-in with the partner failed. Please try again.');
  }
  let token: { access_token?: string; id_token?: string } = {};
  try {
    token = res.json();
  } catch {
    token = {};
  }
  if (res.status !== 200 || !token.access_token) {
    ctx.log.info({ appId, status: res.status }, 'OAuth code exchange refused');
    throw AppError.unauthenticated('The sign-in with the partner failed. Please try again.');
  }
  const grant = randomBytes(32).toString('base64url');
  const verified = await verifiedSubject(ctx, app, token.id_token, state.nonce);
  const now = ctx.now();
  await insertGrant(ctx.db, {
    id_hash: hashToken(grant),
    avatar_id: state.avatarId,
    owner_id: state.ownerId,
    app_id: appId,
    subject: subjectOf(token.id_token),
    verified_subject: verified,
    created_at: now,
    expires_at: new Date(now.getTime() + OAUTH_GRANT_TTL_MS),
  });
  const back = new URL(backPath(ctx, state.back, state.avatarId), ctx.config.PUBLIC_URL);
  back.searchParams.set('oauthGrant', grant);
  return {
    location: backPath(ctx, `${back.pathname}${back.search}`, state.avatarId),
    clearCookie: clearBrowserBinding(ctx.config.PUBLIC_URL, state.nonce),
  };
}

/** Consumes a grant for this avatar (with its verified subject, if any); null when unknown,
 *  used, expired or for another avatar. */
export async function useGrant(
  ctx: AppContext,
  avatarId: string,
  grant: string | undefined,
): Promise<{ verifiedSubject: string | null } | null> {
  if (!grant || grant.length > 200) return null;
  const now = ctx.now();
  const spent = await spendGrant(ctx.db, hashToken(grant), avatarId, now);
  await deleteGrantsExpiredBefore(ctx.db, new Date(now.getTime() - 24 * 60 * 60_000));
  return spent;
}

/** The user id of an OpenID id_token as a label for the online-users list (unverified; what
 *  keys memory is the verified subject, oauth-identity.ts). */
function subjectOf(idToken: string | undefined): string {
  if (!idToken) return '';
  try {
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as { email?: string; sub?: string };
    return String(claims.email ?? claims.sub ?? '').slice(0, 200);
  } catch {
    return '';
  }
}
