// Keys the browser does not have: when a form shows a stored key masked ('••••abcd') and a
// look-up needs it, the browser sends the masked value with the avatar's id and the server uses
// the stored key, but only for the provider that key belongs to.
import { isMaskedSecret } from '@parla/shared/schemas/brain-forms';
import { BRAIN_MESSAGES, type SecretRef } from '@parla/shared/schemas/brain';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { storedSecret } from './brain-secrets';

/** The saved agent_pipeline_config and engine of one of the owner's avatars; undefined: no such avatar. */
export type PipelineLoader = (ownerId: string, avatarId: string) => Promise<{ pipeline: unknown; engine: number } | undefined>;

export interface KeyScope {
  ctx: AppContext;
  loader: PipelineLoader;
  ownerId: string;
  avatarId?: string | undefined;
}

export type Loose = Record<string, unknown>;
export const obj = (v: unknown): Loose => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Loose) : {});

export function storedKeyMissing(): AppError {
  return AppError.invalid(BRAIN_MESSAGES.storedKeyMissing, 'STORED_KEY_MISSING');
}

/**
 * The key to send: a plain key as given; for a masked one, the avatar's stored key `ref`,
 * provided `belongs` says the stored pipeline uses it for the provider being called.
 */
export async function resolveKey(
  scope: KeyScope,
  given: string | null | undefined,
  ref: SecretRef,
  belongs: (pipeline: Loose, engine: number) => boolean,
): Promise<string | undefined> {
  if (!given || !given.trim()) return undefined;
  if (!isMaskedSecret(given)) return given.trim();
  if (!scope.avatarId) throw storedKeyMissing();
  const saved = await scope.loader(scope.ownerId, scope.avatarId);
  if (saved === undefined) throw AppError.notFound('Avatar');
  if (!belongs(obj(saved.pipeline), saved.engine)) throw storedKeyMissing();
  const secret = storedSecret(scope.ctx.secrets, saved.pipeline, ref);
  if (!secret) throw storedKeyMissing();
  return secret.value;
}
