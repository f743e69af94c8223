// The one rule for an avatar id, at every entry point (the avatar page, the public view, the
// conversation socket, the config files, the owner's calls, the player in the browser): exactly a
// lower-case UUID as the server made it. Nothing is trimmed, decoded again or case-folded, so every
// reader looks up the same row or none (docs/decisions/206-one-avatar-id-rule.md).
import { z } from 'zod';

export const AVATAR_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An avatar id that may name a row. */
export const avatarId = z.string().regex(AVATAR_ID_PATTERN, 'Avatar not found.');

export function isAvatarId(value: unknown): boolean {
  return avatarId.safeParse(value).success;
}

/** How a path, query or body field carries an avatar id: taken exactly as sent (never trimmed);
 *  the service answers 404 when it breaks the rule, as for an id of another account. */
export const avatarIdReference = z.string({ error: 'Id is required' }).min(1, 'Id is required').max(100, 'Id is invalid');
