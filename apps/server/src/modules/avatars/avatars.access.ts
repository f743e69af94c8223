// The avatar's fixed link token (docs/decisions/207-link-token-only-for-default.md). It opens the
// avatar only while its encryption option is Default: with None nothing is needed, with a created
// key only a single-use ES256 token signed by that key. It is replaced when the option changes
// (a link handed out under one option never opens the avatar under another) and when the owner
// asks for a new one. And a suspended account's avatars open for no one (decision 208).
import type { Updateable } from 'kysely';
import { AccountStatus } from '@parla/shared/enums';
import { ErrorCode } from '@parla/shared/errors';
import { ENCRYPTION_DEFAULT } from '@parla/shared/schemas/avatar';
import { AVATAR_UNAVAILABLE_MESSAGE, type RegenerateAvatarTokenResponse } from '@parla/shared/schemas/avatar-access';
import type { AppContext } from '../../context';
import type { AvatarsTable } from '../../db/tables/avatars';
import { AppError } from '../../lib/errors';
import { newToken, safeEqual } from '../../lib/tokens';
import { accountStatus } from '../account/account.repository';
import * as repo from './avatars.repository';

/** The avatar's encryption option ('Default', 'None' or a key id). */
export function encryptionOption(row: Pick<repo.PublicAvatarRow, 'enc_key_id'>): string {
  return row.enc_key_id || ENCRYPTION_DEFAULT;
}

/** Whether the token is the avatar's fixed link token and the option lets that token in. */
export function fixedTokenOpens(row: Pick<repo.PublicAvatarRow, 'enc_key_id' | 'token'>, token: string): boolean {
  return encryptionOption(row) === ENCRYPTION_DEFAULT && safeEqual(token, row.token);
}

/** A save that changes the encryption option also replaces the link token. */
export function rotateTokenOnOptionChange(stored: Pick<repo.PublicAvatarRow, 'enc_key_id'>, columns: Updateable<AvatarsTable>): void {
  const next = typeof columns.enc_key_id === 'string' ? columns.enc_key_id || ENCRYPTION_DEFAULT : null;
  if (next !== null && next !== encryptionOption(stored)) columns.token = newToken();
}

/** The owner replaces the link token; the avatar's version (updated) stays, so an open editor
 *  can still save. */
export async function regenerateAvatarToken(ctx: AppContext, ownerId: string, agentId: string): Promise<RegenerateAvatarTokenResponse> {
  if (!repo.isAvatarId(agentId)) throw AppError.notFound('Avatar');
  const token = newToken();
  if (!(await repo.setToken(ctx.db, ownerId, agentId, token))) throw AppError.notFound('Avatar');
  return { status: 'OK', agentId, token };
}

/** A suspended account's avatars serve no one: not the public view, not a conversation (the
 *  product's own model would pay for a Simple avatar). Error 6; the socket closes with 4006. */
export async function assertOwnerActive(ctx: AppContext, ownerId: string): Promise<void> {
  if ((await accountStatus(ctx.db, ownerId)) !== AccountStatus.Active)
    throw new AppError(ErrorCode.AuthenticationFailed, 403, [AVATAR_UNAVAILABLE_MESSAGE], { failReason: 'ACCOUNT_SUSPENDED' });
}
