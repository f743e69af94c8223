// The avatar's link token (docs/decisions/207-link-token-only-for-default.md): the fixed token in
// the access link opens an avatar only while its encryption option is Default; the owner can
// replace it (the old link stops working at once).
import { z } from 'zod';
import { avatarIdReference } from './avatar-id';

export const regenerateAvatarTokenRequest = z.object({ agentId: avatarIdReference });
export type RegenerateAvatarTokenRequest = z.infer<typeof regenerateAvatarTokenRequest>;

export interface RegenerateAvatarTokenResponse {
  status: 'OK';
  agentId: string;
  /** The new link token (the old one no longer opens the avatar). */
  token: string;
}

export const REGENERATE_LINK_MESSAGES = {
  button: 'Regenerate link',
  confirmTitle: 'Regenerate the access link?',
  confirmText:
    'The current link and every embed code that uses it stop working at once. Websites that show this avatar must be given the new embed code.',
  confirm: 'Regenerate',
  done: 'A new access link was made. The old one no longer works.',
  failed: 'The access link could not be regenerated. Please try again.',
  notDefault: 'The access link carries a token only with the Default encryption option.',
} as const;

/** What an end user is told when the avatar's account is suspended (error 6, close 4006): the
 *  public view and new conversations are refused, and live ones end (decision 208). */
export const AVATAR_UNAVAILABLE_MESSAGE = 'This avatar is not available right now.';
