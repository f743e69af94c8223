// Registration and email verification. Whoever proves the mailbox decides the password: every
// registration of an unverified address keeps its own password, no registration replaces another,
// and a verification link (any live link of the address) applies the registration whose password
// the mailbox owner types (issue 33, item 4; decisions 007, 011).
import { AccountStatus, UserType } from '@parla/shared/enums';
import {
  EMAIL_VERIFICATION_TTL_MS,
  MAIL_PER_ADDRESS_INTERVAL_MS,
  PENDING_REGISTRATIONS_PER_ADDRESS,
  VERIFY_MAIL_WINDOW_MS,
  VERIFY_MAILS_PER_WINDOW,
} from '@parla/shared/limits';
import { ErrorCode, type FailReason } from '@parla/shared/errors';
import { SubscriptionType } from '@parla/shared/plans';
import type { EmailVerificationRequest, EmailVerificationResponse, RegisterRequest } from '@parla/shared/schemas/auth';
import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/errors';
import type { MailMessage } from '../../lib/mailer';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { hashToken, newId, newToken } from '../../lib/tokens';
import { alreadyRegisteredMail, verificationMail } from './auth.mail';
import * as repo from './auth.repository';

export const REGISTRATION_DISABLED = 'Registration is currently disabled.';
export const VERIFY_WRONG_PASSWORD =
  'This is not the password this email address was registered with. Enter the password you chose when you registered, or register again.';
const VERIFY_INVALID = 'This verification link is invalid or has expired. Sign in with your email and password to receive a new one.';

type Q = Kysely<DB> | Transaction<DB>;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function appLink(ctx: AppContext, path: string): string {
  return `${ctx.config.PUBLIC_URL}/react${path}`;
}

/** How many mails of each kind an address may receive per window. Verification allows a few, so
 *  an attacker's registration just before the owner's does not hold the owner's first mail. */
const MAIL_POLICY: Record<repo.MailKind, { limit: number; windowMs: number }> = {
  verify_email: { limit: VERIFY_MAILS_PER_WINDOW, windowMs: VERIFY_MAIL_WINDOW_MS },
  already_registered: { limit: 1, windowMs: MAIL_PER_ADDRESS_INTERVAL_MS },
  reset_password: { limit: 1, windowMs: MAIL_PER_ADDRESS_INTERVAL_MS },
};

/** Whether a mail of this kind may go to this address now (the state is in the database, so
 *  every API process agrees; decision 008). */
export function mayMail(ctx: AppContext, db: Q, email: string, kind: repo.MailKind): Promise<boolean> {
  const now = ctx.now();
  const { limit, windowMs } = MAIL_POLICY[kind];
  return repo.claimMailSlot(db, email, kind, now, new Date(now.getTime() - windowMs), limit);
}

/** A new verification code for the address, when the throttle allows; the mail to send after
 *  commit, or null. The code names the address, not a registration: the password typed on the
 *  verification page chooses the registration. */
export async function newVerification(ctx: AppContext, db: Q, user: { id: string; email: string }): Promise<MailMessage | null> {
  if (!(await mayMail(ctx, db, user.email, 'verify_email'))) return null;
  const code = newToken();
  await repo.insertCode(db, {
    code_hash: hashToken(code),
    purpose: 'verify_email',
    user_id: user.id,
    created_by: null,
    expires_at: new Date(ctx.now().getTime() + EMAIL_VERIFICATION_TTL_MS),
  });
  return verificationMail(user.email, appLink(ctx, `/email-verification/${code}`));
}

/** The pending registration of an unverified account whose password this is, newest first.
 *  An account without one (made before migration 0005 kept them) is its own registration. */
export async function matchingRegistration(
  db: Q,
  user: repo.Registration & { id: string },
  password: string,
): Promise<repo.Registration | undefined> {
  const pending = await repo.pendingRegistrations(db, user.id, PENDING_REGISTRATIONS_PER_ADDRESS);
  for (const registration of pending.length ? pending : [user]) {
    if (await verifyPassword(registration.password_hash, password)) return registration;
  }
  return undefined;
}

/** Registration answers OK on every path, after the same work (one password hash, mails sent
 *  after the answer), so it tells nobody whether the address is known or a mail went out. A
 *  registration of an unverified address is kept beside the earlier ones (the newest few). */
export async function register(ctx: AppContext, input: RegisterRequest): Promise<void> {
  if (!ctx.config.ALLOW_REGISTRATION) throw AppError.forbidden(REGISTRATION_DISABLED);
  const email = normalizeEmail(input.email);
  const registration: repo.Registration = {
    password_hash: await hashPassword(input.password),
    first_name: input.firstName,
    last_name: input.lastName,
    company_name: input.companyName ?? null,
    mobile_number: input.mobileNumber ?? null,
  };
  const now = ctx.now();
  // The mail is queued in the registration's own transaction (decision 012); the sender delivers it.
  const queued = await ctx.db.transaction().execute(async (trx): Promise<boolean> => {
    const mail = await registrationMail(ctx, trx, email, registration, now);
    if (mail) await ctx.mailer.queue(trx, mail);
    return mail !== null;
  });
  if (queued) ctx.mailer.wake();
}

async function registrationMail(
  ctx: AppContext,
  trx: Transaction<DB>,
  email: string,
  registration: repo.Registration,
  now: Date,
): Promise<MailMessage | null> {
  const inserted = await repo.insertUserIfNew(trx, {
    id: newId(),
    email,
    ...registration,
    user_type: UserType.Customer,
    status: AccountStatus.Active,
    subscription_type: SubscriptionType.FREE,
    requested_sub_type: null,
  });
  // The account's row lock orders this against a verification of the address (decision 007).
  const pending = inserted ?? (await repo.lockPendingAccount(trx, email));
  if (pending) {
    await repo.insertPendingRegistration(trx, pending.id, registration, now);
    await repo.trimPendingRegistrations(trx, pending.id, PENDING_REGISTRATIONS_PER_ADDRESS);
    return newVerification(ctx, trx, { id: pending.id, email });
  }
  // Verified already: the owner hears of it, the page tells nobody.
  const owner = await repo.findUserByEmail(trx, email);
  if (!owner || !(await mayMail(ctx, trx, email, 'already_registered'))) return null;
  return alreadyRegisteredMail(email, owner.first_name, appLink(ctx, '/login'), appLink(ctx, '/forgotpassword'));
}

function verifiedAnswer(user: { email: string; first_name: string }, again: boolean): EmailVerificationResponse {
  return {
    status: 'OK',
    email: user.email,
    firstName: user.first_name,
    displayTitle: again ? 'Email already verified' : 'Email verified',
    displayMessage: again
      ? `Your email address ${user.email} is already verified. You can sign in.`
      : `Thank you, ${user.first_name}! Your email address ${user.email} has been verified. You can now sign in.`,
    errors: [],
  };
}

function verificationFailed(message: string, reason: FailReason): AppError {
  return new AppError(ErrorCode.InvalidOrMissingParams, 400, [message], {
    failReason: reason,
    body: { email: '', firstName: '', displayTitle: 'Verification failed', displayMessage: message },
  });
}

/** The link proves the mailbox; the password chooses which registration of the address becomes
 *  the account. A wrong password leaves the link live (only the mailbox owner holds it). */
export async function verifyEmail(ctx: AppContext, input: EmailVerificationRequest): Promise<EmailVerificationResponse> {
  const now = ctx.now();
  const codeHash = hashToken(input.verificationCode);
  const known = await repo.findCode(ctx.db, codeHash, 'verify_email');
  const user = known ? await repo.findUserById(ctx.db, known.user_id) : undefined;
  // A link opened again after the address was verified: say it is done rather than failed.
  if (user?.email_verified_at) return verifiedAnswer(user, true);
  if (!known || !user || known.used_at || new Date(known.expires_at) <= now) throw verificationFailed(VERIFY_INVALID, 'INVALID_CODE');

  // Hashing outside the transaction: the row lock is held for the writes only.
  const chosen = await matchingRegistration(ctx.db, user, input.password);
  if (!chosen) throw verificationFailed(VERIFY_WRONG_PASSWORD, 'WRONG_PASSWORD');
  const verified = await ctx.db.transaction().execute(async (trx) => {
    await repo.lockUser(trx, user.id);
    // The update is the check: a link used meanwhile, or an address verified meanwhile, fails.
    if (!(await repo.consumeCode(trx, codeHash, 'verify_email', now))) return undefined;
    const current = await repo.findUserById(trx, user.id);
    if (!current || current.email_verified_at) return current;
    // The first verification ends every session opened before it and every other link.
    await repo.applyRegistration(trx, user.id, chosen, now);
    await repo.revokeUserSessions(trx, user.id, now);
    await repo.expireUserCodes(trx, user.id, 'verify_email', now);
    await repo.deletePendingRegistrations(trx, user.id);
    return { ...current, first_name: chosen.first_name };
  });
  // Every process hears of the revocation from the database; this one drops its entries now.
  ctx.sessions.forgetUser(user.id);
  if (!verified) throw verificationFailed(VERIFY_INVALID, 'INVALID_CODE');
  return verifiedAnswer(verified, false);
}
