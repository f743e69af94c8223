// The rules of accounts and sessions: registration, verification, sign-in (password and
// admin-proxy), lockout and password reset. The first administrator: first-admin.ts.
import { AccountStatus, UserType } from '@parla/shared/enums';
import {
  ADMIN_PROXY_CODE_TTL_MS,
  EMAIL_VERIFICATION_TTL_MS,
  KNOWLEDGE_JWT_TTL_S,
  LOGIN_FAILURE_LIMIT,
  LOGIN_FAILURE_WINDOW_MS,
  MAIL_PER_ADDRESS_INTERVAL_MS,
  PASSWORD_RESET_TTL_MS,
  SESSION_REMEMBER_TTL_MS,
  SESSION_TTL_MS,
} from '@parla/shared/limits';
import { ErrorCode } from '@parla/shared/errors';
import { SubscriptionType } from '@parla/shared/plans';
import type { EmailVerificationResponse, LoginRequest, LoginResponse, RegisterRequest } from '@parla/shared/schemas/auth';
import type { AppContext } from '../../context';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { signHs256 } from '../../lib/jwt';
import type { MailMessage } from '../../lib/mailer';
import { dummyHash, hashPassword, verifyPassword } from '../../lib/passwords';
import { hashToken, newId, newToken } from '../../lib/tokens';
import type { SessionUser } from '../../plugins/auth';
import { alreadyRegisteredMail, resetMail, verificationMail } from './auth.mail';
import * as repo from './auth.repository';

export const INVALID_CREDENTIALS = 'Invalid email or password.';
export const UNVERIFIED_EMAIL =
  'Please verify your email address before signing in. We have sent you a verification link; check your inbox.';
export const ACCOUNT_SUSPENDED = 'This account has been suspended. Please contact support.';
export const REGISTRATION_DISABLED = 'Registration is currently disabled.';
export const ADMIN_PROXY_INVALID = 'This sign-in link is invalid or has expired. Ask an administrator for a new one.';
export const TOO_MANY_FAILURES = 'Too many failed sign-in attempts. Please wait a few minutes, or reset your password to sign in at once.';

export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
}

type Q = Kysely<DB> | Transaction<DB>;

const normalizeEmail = (email: string) => email.trim().toLowerCase();
const displayName = (u: { first_name: string; last_name: string }) => `${u.first_name} ${u.last_name}`.trim();

function link(ctx: AppContext, path: string): string {
  return `${ctx.config.PUBLIC_URL}/react${path}`;
}

/** Whether a mail of this kind may go to this address now (one per kind per interval; the
 *  state is in the database, so every API process agrees). */
function mayMail(ctx: AppContext, db: Q, email: string, kind: repo.MailKind): Promise<boolean> {
  const now = ctx.now();
  return repo.claimMailSlot(db, email, kind, now, new Date(now.getTime() - MAIL_PER_ADDRESS_INTERVAL_MS));
}

/** A new verification code for the account's current registration, when the interval allows;
 *  the mail to send after commit, or null. */
async function newVerification(
  ctx: AppContext,
  db: Q,
  user: { id: string; email: string; first_name: string },
): Promise<MailMessage | null> {
  if (!(await mayMail(ctx, db, user.email, 'verify_email'))) return null;
  const code = newToken();
  await repo.insertCode(db, {
    code_hash: hashToken(code),
    purpose: 'verify_email',
    user_id: user.id,
    created_by: null,
    expires_at: new Date(ctx.now().getTime() + EMAIL_VERIFICATION_TTL_MS),
  });
  return verificationMail(user.email, user.first_name, link(ctx, `/email-verification/${code}`));
}

interface PendingRegistration {
  password_hash: string;
  first_name: string;
  last_name: string;
  company_name: string | null;
  mobile_number: string | null;
}

/** Registration answers OK on every path, after the same work (one password hash, mails sent
 *  after the answer), so it tells nobody whether the address is known or a mail went out.
 *  A registration of an address nobody has verified replaces the pending one and kills its
 *  links: a link verifies the registration that asked for it (issue 20, finding 4). */
export async function register(ctx: AppContext, input: RegisterRequest): Promise<void> {
  if (!ctx.config.ALLOW_REGISTRATION) throw AppError.forbidden(REGISTRATION_DISABLED);
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  const now = ctx.now();
  const pending: PendingRegistration = {
    password_hash: passwordHash,
    first_name: input.firstName,
    last_name: input.lastName,
    company_name: input.companyName ?? null,
    mobile_number: input.mobileNumber ?? null,
  };
  // The mail is queued in the registration's own transaction; the sender delivers it after.
  const queued = await ctx.db.transaction().execute(async (trx) => {
    const mail = await registrationMail(ctx, trx, email, input, pending, now);
    if (mail) await ctx.mailer.queue(trx, mail);
    return mail !== null;
  });
  if (queued) ctx.mailer.wake();
}

async function registrationMail(
  ctx: AppContext,
  trx: Transaction<DB>,
  email: string,
  input: RegisterRequest,
  pending: PendingRegistration,
  now: Date,
): Promise<MailMessage | null> {
  const inserted = await repo.insertUserIfNew(trx, {
    id: newId(),
    email,
    ...pending,
    user_type: UserType.Customer,
    status: AccountStatus.Active,
    subscription_type: SubscriptionType.FREE,
    requested_sub_type: null,
  });
  if (inserted) return newVerification(ctx, trx, { id: inserted.id, email, first_name: input.firstName });
  const replaced = await repo.replacePendingRegistration(trx, email, { ...pending, updated_at: now });
  if (replaced) {
    await repo.expireUserCodes(trx, replaced.id, 'verify_email', now);
    return newVerification(ctx, trx, { id: replaced.id, email, first_name: input.firstName });
  }
  // Verified already: the owner hears of it, the page tells nobody.
  const owner = await repo.findUserByEmail(trx, email);
  if (!owner || !(await mayMail(ctx, trx, email, 'already_registered'))) return null;
  return alreadyRegisteredMail(email, owner.first_name, link(ctx, '/login'), link(ctx, '/forgotpassword'));
}

export async function verifyEmail(ctx: AppContext, code: string): Promise<EmailVerificationResponse> {
  const now = ctx.now();
  const codeHash = hashToken(code);
  const verified = await ctx.db.transaction().execute(async (trx) => {
    const known = await repo.findCode(trx, codeHash, 'verify_email');
    if (!known) return undefined;
    // The account first, as registration does: a registration replacing the pending one either
    // finishes before (this code is then expired) or waits until this verification is done.
    await repo.lockUser(trx, known.user_id);
    const used = await repo.consumeCode(trx, codeHash, 'verify_email', now);
    const user = used ? await repo.findUserById(trx, used.user_id) : undefined;
    if (!user) return undefined;
    if (!user.email_verified_at) {
      // The first verification ends every session opened before it and every other link.
      await repo.markEmailVerified(trx, user.id, now);
      await repo.revokeUserSessions(trx, user.id, now);
      await repo.expireUserCodes(trx, user.id, 'verify_email', now);
    }
    return user;
  });
  if (verified) {
    return {
      status: 'OK',
      email: verified.email,
      firstName: verified.first_name,
      displayTitle: 'Email verified',
      displayMessage: `Thank you, ${verified.first_name}! Your email address ${verified.email} has been verified. You can now sign in.`,
      errors: [],
    };
  }
  // A link opened twice: say it is done rather than failed.
  const known = await repo.findCode(ctx.db, codeHash, 'verify_email');
  const user = known ? await repo.findUserById(ctx.db, known.user_id) : undefined;
  if (user?.email_verified_at) {
    return {
      status: 'OK',
      email: user.email,
      firstName: user.first_name,
      displayTitle: 'Email already verified',
      displayMessage: `Your email address ${user.email} is already verified. You can sign in.`,
      errors: [],
    };
  }
  const message = 'This verification link is invalid or has expired. Sign in with your email and password to receive a new one.';
  throw new AppError(ErrorCode.InvalidOrMissingParams, 400, [message], {
    failReason: 'INVALID_CODE',
    body: { email: '', firstName: '', displayTitle: 'Verification failed', displayMessage: message },
  });
}

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
  const ok = await verifyPassword(user?.password_hash ?? (await dummyHash()), input.password ?? '');
  if (!user || !ok) {
    await repo.recordLoginFailure(ctx.db, email, now);
    throw AppError.unauthenticated(INVALID_CREDENTIALS);
  }
  if (user.status !== AccountStatus.Active) throw AppError.forbidden(ACCOUNT_SUSPENDED);
  if (!user.email_verified_at) {
    // The password proves this is the pending registration: a new link for it, once per interval.
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
  await ctx.mailer.post(resetMail(user.email, user.first_name, link(ctx, `/reset-password/${code}`)));
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
  return ctx.db.transaction().execute(async (trx) => {
    const used = await repo.consumeCode(trx, hashToken(code), 'reset_password', now);
    const user = used ? await repo.findUserById(trx, used.user_id) : undefined;
    if (!used || !user || user.status !== AccountStatus.Active) throw AppError.invalid(INVALID_RESET_CODE, 'INVALID_CODE');
    // Proving the inbox verifies it; a reset ends every other session and lifts the lockout.
    await repo.setPassword(trx, user.id, passwordHash, user.email_verified_at ?? now, now);
    await repo.revokeUserSessions(trx, user.id, now);
    await repo.clearLoginFailures(trx, user.email);
    return { email: user.email };
  });
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
