// What an avatar links to in other areas: knowledge collections (customData.collection_ids),
// approved functions (functions), an encryption key (encKeyId) and an OAuth config
// (partnerOauthAppId, refused rather than dropped when not the owner's). The first three are join
// tables with cascades (avatar-links.repository, docs/decisions/403); saving an avatar keeps only
// links that still exist, belong to its owner and (functions) are approved, since an editor opened
// before a delete may send them back.
import { DEFAULT_ENC_KEY_ALIAS } from '@parla/shared/schemas/encryption-keys';
import { ENCRYPTION_NONE, type SaveAvatarRequest } from '@parla/shared/schemas/avatar';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import * as keys from '../encryption-keys/encryption-keys.repository';
import { findApprovedFunctions } from '../functions/functions.service';
import { findCollections } from '../knowledge/knowledge.repository';
import { findApp } from '../oauth-configs/oauth-configs.repository';

/** The payload with its links narrowed to what exists, is the owner's and (functions) is approved. */
export async function withLiveLinks(ctx: AppContext, ownerId: string, p: SaveAvatarRequest): Promise<SaveAvatarRequest> {
  const out: SaveAvatarRequest = { ...p };
  const collectionIds = p.customData?.collection_ids;
  if (collectionIds?.length) {
    const found = new Set((await findCollections(ctx.db, ownerId, collectionIds)).map((c) => c.id));
    out.customData = { ...p.customData, collection_ids: collectionIds.filter((id) => found.has(id)) };
  }
  if (p.functions?.length) {
    const approved = new Set((await findApprovedFunctions(ctx, ownerId, p.functions)).map((f) => f.id));
    out.functions = p.functions.filter((id) => approved.has(id));
  }
  if (p.encKeyId && p.encKeyId !== DEFAULT_ENC_KEY_ALIAS && p.encKeyId !== ENCRYPTION_NONE) {
    if (!(await keys.find(ctx.db, ownerId, p.encKeyId))) out.encKeyId = DEFAULT_ENC_KEY_ALIAS;
  }
  await checkOauthLink(ctx, ownerId, p.partnerOauthAppId);
  return out;
}

/**
 * The OAuth config an avatar signs its end users in with must be one of the owner's: another
 * account's (or a deleted) config is not found (404) and the save changes nothing. Unlike a
 * collection or a function it is not quietly dropped, since dropping it would leave OAuth on with
 * no partner (docs/decisions/209). A value that is not a whole number is left to the Advanced
 * tab's own message (checkAdvanced).
 */
async function checkOauthLink(ctx: AppContext, ownerId: string, appId: string | null | undefined): Promise<void> {
  if (!appId || !/^[1-9][0-9]*$/.test(appId)) return;
  // Ids are integer identities: a larger number names no config (and must not reach SQL).
  const id = Number(appId);
  if (id > 2_147_483_647 || !(await findApp(ctx.db, ownerId, id))) throw AppError.notFound('OAuth config');
}
