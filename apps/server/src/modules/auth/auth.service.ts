// The rules of accounts and sessions: sign-in (password and admin-proxy), lockout and password
// reset. Registration and verification: registration.service.ts; the first administrator:
// first-admin.ts.
import { AccountStatus, UserType } from '@parla/shared/enums';
import {
  ADMIN_PROXY_CODE_TTL_MS,
  KNOWLEDGE_JWT_TTL_S,
  LOGIN_FAILURE_LIMIT,
  LOGIN_FAILURE_WINDOW_MS,
  PASSWORD_RESET_TTL_MS,
  SESSION_REMEMBER_TTL_MS,
  SESSION_TTL_MS,
} from '@parla/shared/limits';
import type { LoginRequest, LoginResponse } from '@parla/shared/schemas/auth';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { signHs256 } from '../../lib/jwt';
import { dummyHash, hashPassword, verifyPassword } from '../../lib/passwords';
import { hashToken, newId, newToken } from '../../lib/tokens';
import type { SessionUser } from '../../plugins/auth';
import { resetMail } from './auth.mail';
import * as repo from './auth.repository';
import { appLink, matchingRegistration, mayMail, newVerification, normalizeEmail } from './registration.service';

export const INVALID_CREDENTIALS = 'Invalid email or password.';
export const UNVERIFIED_EMAIL =
  'Please verify your email address before signing in. We have sent you a verification link; check your inbox.';
export const ACCOUNT_SUSPENDED = 'This account has been suspended. Please contact support.';
export const ADMIN_PROXY_INVALID = 'This sign-in link is invalid or has expired. Ask an administrator for a new one.';
export const TOO_MANY_FAILURES = 'Too many failed sign-in attempts. Please wait a few minutes, or reset your password to sign in at once.';

export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
}

const displayName = (u: { first_name: string; last_name: string }) => `${u.first_name} ${u.last_name}`.trim();

async function createSession(
  ctx: AppContext,
  user: { id: string; first_name: string; last_name: string; user_type: string },
  opts: { remember: boolean; adminProxy: boolean; impersonatorId: string | null; meta: RequestMeta },
): Promise<LoginResponse> {
  const token = newToken();
  const ttl = opts.remember && !opts.adminProxy ? SESSION_REMEMBER_TTL_MS : SESSION_TTL_MS;
  const expires = new Date(ctx.now().getTime() + ttl);
  await repo.insertSession(ctx.db, {
    id: newId(),
    token_hash: hashToken(token),
    user_id: user.id,
    expires_at: expires,
    remember: opts.remember,
    admin_proxy: opts.adminProxy,
    impersonator_id: opts.impersonatorId,
    ip: opts.meta.ip,
    user_agent: opts.meta.userAgent?.slice(0, 300) ?? null,
  });
  return {
    status: 'OK',
    sessionId: token,
    userName: displayName(user),
    expiryDate: expires.toISOString(),
    userType: user.user_type === UserType.Admin ? UserType.Admin : UserType.Customer,
    adminProxy: opts.adminProxy,
  };
}

export async function login(ctx: AppContext, input: LoginRequest, meta: RequestMeta): Promise<LoginResponse> {
  const email = normalizeEmail(input.email);
  if (input.adminSessionId !== undefined) return adminProxyLogin(ctx, email, input.adminSessionId, meta);

  const now = ctx.now();
  // The lockout is checked before any hashing, so a flood costs no CPU.
  const failures = await repo.recentLoginFailures(ctx.db, email, new Date(now.getTime() - LOGIN_FAILURE_WINDOW_MS));
  if (failures.count >= LOGIN_FAILURE_LIMIT) {
    const retryMs = (failures.oldest?.getTime() ?? now.getTime()) + LOGIN_FAILURE_WINDOW_MS - now.getTime();
    throw AppError.rateLimited(retryMs / 1000, TOO_MANY_FAILURES);
  }
  const user = await repo.findUserByEmail(ctx.db, email);
  const password = input.password ?? '';
  // An unverified address: any of its pending registrations' passwords (decision 011).
  const ok = user?.email_verified_at
    ? await verifyPassword(user.password_hash, password)
    : user
      ? (await matchingRegistration(ctx.db, user, password)) !== undefined
      : await verifyPassword(await dummyHash(), password);
  if (!user || !ok) {
    await repo.recordLoginFailure(ctx.db, email, now);
    throw AppError.unauthenticated(INVALID_CREDENTIALS);
  }
  if (user.status !== AccountStatus.Active) throw AppError.forbidden(ACCOUNT_SUSPENDED);
  if (!user.email_verified_at) {
    // The password proves one of the address's registrations: a new link, when the throttle allows.
    const mail = await newVerification(ctx, ctx.db, user);
    if (mail) await ctx.mailer.post(mail);
    throw AppError.forbidden(UNVERIFIED_EMAIL);
  }
  await repo.clearLoginFailures(ctx.db, email);
  return createSession(ctx, user, { remember: input.rememberMe ?? false, adminProxy: false, impersonatorId: null, meta });
}

async function adminProxyLogin(ctx: AppContext, email: string, code: string, meta: RequestMeta): Promise<LoginResponse> {
  const used = await repo.consumeCode(ctx.db, hashToken(code), 'admin_proxy', ctx.now());
  const user = used ? await repo.findUserById(ctx.db, used.user_id) : undefined;
  if (!used || !user || user.email !== email) throw AppError.unauthenticated(ADMIN_PROXY_INVALID);
  if (user.status !== AccountStatus.Active) throw AppError.forbidden(ACCOUNT_SUSPENDED);
  const admin = used.created_by ? await repo.findUserById(ctx.db, used.created_by) : undefined;
  if (!admin || admin.user_type !== UserType.Admin || admin.status !== AccountStatus.Active) {
    throw AppError.unauthenticated(ADMIN_PROXY_INVALID);
  }
  await repo.audit(ctx.db, { actor_id: admin.id, action: 'admin_proxy.sign_in', target: user.id, detail: { ip: meta.ip } });
  ctx.log.info({ adminId: admin.id, userId: user.id }, 'administrator signed in on behalf of a customer');
  return createSession(ctx, user, { remember: false, adminProxy: true, impersonatorId: admin.id, meta });
}

export async function logout(ctx: AppContext, user: SessionUser): Promise<void> {
  await repo.revokeSession(ctx.db, user.sessionId, ctx.now());
  // Every process hears of it from the database (decision 017); this one drops its entries now.
  ctx.sessions.forgetUser(user.id);
}

const afterAnswer = new Set<Promise<void>>();

/** Work that runs after the answer has gone, so the answer's time says nothing about it. It
 *  starts on the next turn of the event loop, after the reply is written: with the embedded
 *  database the queries run on this thread and would otherwise hold the answer back. */
function runAfterAnswer(ctx: AppContext, what: string, work: () => Promise<void>): void {
  const job = new Promise<void>((resolve) => setImmediate(resolve))
    .then(work)
    .catch((err: unknown) => ctx.log.warn({ err: err instanceof Error ? err.message : String(err) }, `${what} failed`));
  afterAnswer.add(job);
  void job.finally(() => afterAnswer.delete(job));
}

/** Resolves when the work started after earlier answers is done (tests count its mails). */
export async function settled(): Promise<void> {
  while (afterAnswer.size) await Promise.all([...afterAnswer]);
}

/** Answers at once, the same for every address: the look-up, the code and the mail (at most
 *  once per interval per address; the earlier link stays valid meanwhile) come after. */
export function forgotPassword(ctx: AppContext, rawEmail: string): void {
  runAfterAnswer(ctx, 'password reset mail', () => sendReset(ctx, normalizeEmail(rawEmail)));
}

async function sendReset(ctx: AppContext, email: string): Promise<void> {
  const user = await repo.findUserByEmail(ctx.db, email);
  if (!user || user.status !== AccountStatus.Active) return;
  if (!(await mayMail(ctx, ctx.db, user.email, 'reset_password'))) return;
  const now = ctx.now();
  await repo.expireUserCodes(ctx.db, user.id, 'reset_password', now);
  const code = newToken();
  await repo.insertCode(ctx.db, {
    code_hash: hashToken(code),
    purpose: 'reset_password',
    user_id: user.id,
    created_by: null,
    expires_at: new Date(now.getTime() + PASSWORD_RESET_TTL_MS),
  });
  await ctx.mailer.post(resetMail(user.email, user.first_name, appLink(ctx, `/reset-password/${code}`)));
}

const INVALID_RESET_CODE = 'Invalid Code';

export async function validateResetCode(ctx: AppContext, code: string): Promise<{ email: string }> {
  const found = await repo.findCode(ctx.db, hashToken(code), 'reset_password');
  const now = ctx.now();
  if (!found || found.used_at || new Date(found.expires_at) <= now) throw AppError.invalid(INVALID_RESET_CODE, 'INVALID_CODE');
  const user = await repo.findUserById(ctx.db, found.user_id);
  if (!user || user.status !== AccountStatus.Active) throw AppError.invalid(INVALID_RESET_CODE, 'INVALID_CODE');
  return { email: user.email };
}

export async function resetPassword(ctx: AppContext, code: string, newPassword: string): Promise<{ email: string }> {
  const passwordHash = await hashPassword(newPassword);
  const now = ctx.now();
  const reset = await ctx.db.transaction().execute(async (trx) => {
    const used = await repo.consumeCode(trx, hashToken(code), 'reset_password', now);
    const user = used ? await repo.findUserById(trx, used.user_id) : undefined;
    if (!used || !user || user.status !== AccountStatus.Active) throw AppError.invalid(INVALID_RESET_CODE, 'INVALID_CODE');
    // Proving the inbox verifies it; a reset ends every other session and lifts the lockout.
    await repo.setPassword(trx, user.id, passwordHash, user.email_verified_at ?? now, now);
    await repo.revokeUserSessions(trx, user.id, now);
    await repo.deletePendingRegistrations(trx, user.id);
    await repo.clearLoginFailures(trx, user.email);
    return { id: user.id, email: user.email };
  });
  ctx.sessions.forgetUser(reset.id);
  return { email: reset.email };
}

export async function impersonate(ctx: AppContext, admin: SessionUser, userId: string): Promise<{ adminSessionId: string; email: string }> {
  const user = await repo.findUserById(ctx.db, userId);
  if (!user || user.user_type === UserType.Admin) throw AppError.notFound('Customer');
  if (user.status !== AccountStatus.Active) throw AppError.invalid(ACCOUNT_SUSPENDED);
  const code = newToken();
  await repo.insertCode(ctx.db, {
    code_hash: hashToken(code),
    purpose: 'admin_proxy',
    user_id: user.id,
    created_by: admin.id,
    expires_at: new Date(ctx.now().getTime() + ADMIN_PROXY_CODE_TTL_MS),
  });
  await repo.audit(ctx.db, { actor_id: admin.id, action: 'admin_proxy.issue', target: user.id });
  return { adminSessionId: code, email: user.email };
}

export async function issueKnowledgeJwt(ctx: AppContext, user: SessionUser): Promise<{ jwtToken: string }> {
  const iat = Math.floor(ctx.now().getTime() / 1000);
  return { jwtToken: await signHs256({ sub: user.id, sid: user.sessionId, iat, exp: iat + KNOWLEDGE_JWT_TTL_S }, ctx.jwtKey) };
}
