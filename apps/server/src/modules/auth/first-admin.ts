// The first administrator, created on the first start when no administrator exists. A generated
// password is written to a file in DATA_DIR that only the server's user can read (0600) and is
// never printed: logs are collected, forwarded and kept by other people and programs (issue 20,
// finding 9; docs/decisions/006-first-administrator-password-file.md).
import { rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AccountStatus, UserType } from '@parla/shared/enums';
import { SubscriptionType } from '@parla/shared/plans';
import type { AppContext } from '../../context';
import { generatePassword, hashPassword } from '../../lib/passwords';
import { newId } from '../../lib/tokens';
import * as repo from './auth.repository';

export const ADMIN_PASSWORD_FILE = 'admin-password.txt';

export interface FirstAdmin {
  email: string;
  /** Where the password comes from: ADMIN_PASSWORD, the generated file, or an account that
   *  existed with that email and was made administrator (its own password). */
  password: { from: 'config' } | { from: 'file'; path: string } | { from: 'existing' };
}

/** Writes the password to a new 0600 file (an older file, or a link planted in its place, is
 *  removed first, so the mode is the one given here and nothing is written through a link). */
function writePasswordFile(path: string, password: string): void {
  rmSync(path, { force: true });
  writeFileSync(path, `${password}\n`, { mode: 0o600, flag: 'wx' });
}

/** Creates the first administrator when none exists. */
export async function ensureFirstAdmin(ctx: AppContext): Promise<FirstAdmin | null> {
  if ((await repo.countAdmins(ctx.db)) > 0) return null;
  const email = (ctx.config.ADMIN_EMAIL ?? 'admin@parla.test').trim().toLowerCase();
  const now = ctx.now();
  const existing = await repo.findUserByEmail(ctx.db, email);
  if (existing) {
    await repo.makeAdmin(ctx.db, existing.id, now);
    return { email, password: { from: 'existing' } };
  }
  let password = ctx.config.ADMIN_PASSWORD;
  let from: FirstAdmin['password'] = { from: 'config' };
  if (!password) {
    password = generatePassword();
    const path = resolve(ctx.config.DATA_DIR, ADMIN_PASSWORD_FILE);
    // The file first: an administrator whose password nobody can read would lock the portal.
    writePasswordFile(path, password);
    from = { from: 'file', path };
  }
  await repo.insertUser(ctx.db, {
    id: newId(),
    email,
    password_hash: await hashPassword(password),
    first_name: 'Parla',
    last_name: 'Administrator',
    company_name: null,
    mobile_number: null,
    user_type: UserType.Admin,
    status: AccountStatus.Active,
    email_verified_at: now,
    subscription_type: SubscriptionType.ENTERPRISE,
    requested_sub_type: null,
  });
  return { email, password: from };
}

const PASSWORD_LINE: Record<FirstAdmin['password']['from'], (p: FirstAdmin['password']) => string[]> = {
  config: () => ['  Password: the ADMIN_PASSWORD you configured'],
  existing: () => ['  Password: the password the existing account with this email already had'],
  file: (p) => [
    `  Password: in ${(p as { path: string }).path}`,
    '            (readable only by this user; keep it elsewhere, then delete the file)',
    '  Set ADMIN_EMAIL / ADMIN_PASSWORD to choose your own.',
  ],
};

/** The banner printed on the first start: the email and where the password is, never the password. */
export function adminBanner(admin: FirstAdmin): string {
  return [
    '',
    '================ Parla administrator created ================',
    `  Email:    ${admin.email}`,
    ...PASSWORD_LINE[admin.password.from](admin.password),
    '=============================================================',
    '',
  ].join('\n');
}
