// What the runtime asks of the rest of the server, filled in by runtime/avatar-config.ts (and by
// tests and benches with their own avatars).
import type { AppContext } from '../context';
import { AppError } from '../lib/errors';
import type { AccessRequest, ResolvedAvatar } from './avatar';
import type { RetrievedChunk } from './types';

export interface RuntimeHooks {
  /** Access check + the avatar's runtime view; throws AppError (notFound, invalidToken, ...). */
  resolveAvatar(ctx: AppContext, req: AccessRequest): Promise<ResolvedAvatar>;
  /** Top chunks of the owner's collections for a query. */
  retrieve(
    ctx: AppContext,
    ownerId: string,
    collectionIds: string[],
    query: string,
    topK: number,
    threshold?: number,
  ): Promise<RetrievedChunk[]>;
  /** The OAuth config an avatar's end users sign in with, or null (no access check: the
   *  conversation socket does that). */
  oauthAppOf(ctx: AppContext, avatarId: string): Promise<{ ownerId: string; appId: number } | null>;
}

export const noAvatars: RuntimeHooks = {
  resolveAvatar: async () => {
    throw AppError.notFound('Avatar');
  },
  retrieve: async () => [],
  oauthAppOf: async () => null,
};
