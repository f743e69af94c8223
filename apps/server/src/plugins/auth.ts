// Authentication for every route, declared per route as config.auth:
//   'none'  no check (health, portal settings, public pages)
//   'app'   the application key only (sign-in, registration, reset)
//   'user'  application key + a live session (the default under /api)
//   'admin' as 'user', and the account is an administrator (403 otherwise)
//   'kb'    a knowledge-API JWT from /api/token/jwt, whose session is still live
// Authorization: Bearer {APP_KEY} {sessionToken}   (kb: Bearer {jwt})
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UserType } from '@parla/shared/enums';
import type { AppContext } from '../context';
import { AppError } from '../lib/errors';
import { findLiveSession } from '../modules/auth/auth.repository';
import type { FoundSession } from '../modules/auth/session-cache';
import type { SessionUser } from '../modules/auth/session-user';
import { verifyHs256 } from '../lib/jwt';
import { hashToken, safeEqual } from '../lib/tokens';

export type AuthLevel = 'none' | 'app' | 'user' | 'admin' | 'kb';

// Defined beside the session cache, which context.ts names (this file imports context.ts).
export type { SessionUser };

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthLevel;
  }
  interface FastifyRequest {
    user: SessionUser | null;
  }
}

/** The signed-in user of a route declared 'user', 'admin' or 'kb'. */
export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw AppError.unauthenticated();
  return request.user;
}

type SessionKey = { tokenHash: string } | { sessionId: string };

async function findSession(ctx: AppContext, by: SessionKey, now: Date): Promise<FoundSession | null> {
  const row = await findLiveSession(ctx.db, by, now);
  if (!row) return null;
  const user: SessionUser = {
    id: row.id,
    email: row.email,
    name: `${row.first_name} ${row.last_name}`.trim(),
    type: row.user_type === UserType.Admin ? UserType.Admin : UserType.Customer,
    sessionId: row.session_id,
    adminProxy: row.admin_proxy,
    impersonatorId: row.impersonator_id,
  };
  return { user, expiresAt: new Date(row.expires_at) };
}

/** The live session's user, through the process's session cache (decision 017): what every
 *  request uses. */
export function findSessionUserCached(ctx: AppContext, by: SessionKey): Promise<SessionUser | null> {
  const now = ctx.now();
  const key = 'tokenHash' in by ? `t:${by.tokenHash}` : `s:${by.sessionId}`;
  return ctx.sessions.find(key, now, () => findSession(ctx, by, now));
}

const BEARER = /^Bearer\s+(\S+)(?:\s+(\S+))?\s*$/i;

export function registerAuth(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('user', null);

  app.addHook('onRequest', async (request) => {
    const declared = request.routeOptions.config?.auth;
    const level: AuthLevel = declared ?? (request.url.startsWith('/api/') ? 'user' : 'none');
    if (level === 'none') return;
    const match = BEARER.exec(request.headers.authorization ?? '');

    if (level === 'kb') {
      const claims = match && !match[2] ? await verifyHs256(match[1]!, ctx.jwtKey, Math.floor(ctx.now().getTime() / 1000)) : null;
      if (!claims) throw AppError.invalidToken();
      const user = await findSessionUserCached(ctx, { sessionId: claims.sid });
      if (!user || user.id !== claims.sub) throw AppError.invalidToken();
      request.user = user;
      return;
    }

    if (!match || !safeEqual(match[1]!, ctx.config.APP_KEY)) throw AppError.invalidAppKey();
    if (level === 'app') return;
    const token = match[2];
    if (!token) throw AppError.unauthenticated();
    const user = await findSessionUserCached(ctx, { tokenHash: hashToken(token) });
    if (!user) throw AppError.unauthenticated();
    if (level === 'admin' && user.type !== UserType.Admin) throw AppError.forbidden();
    request.user = user;
  });
}
