// The viseme atlas of a customer's own 3D model (issue 36 items 5 and 6, decision 127): made in
// the customer's browser, checked (own-model-atlas.upload.ts) and stored here with the avatar as
// three stored files (manifest, atlas image, card still) in the database (decision 015), listed
// in avatar_media as 'atlas' so the public media path serves them and a deleted avatar takes them.
import type { FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import { allowsCustomImageAvatar, planName } from '@parla/shared/plans';
import { OWN_MODEL_APPEARANCE } from '@parla/shared/schemas/avatar';
import { OWN_ATLAS_LIMITS, OWN_ATLAS_TEXTS, type OwnModelAtlasResponse } from '@parla/shared/schemas/own-model-atlas';
import type { AppContext } from '../../context';
import type { DB } from '../../db/schema';
import type { OwnModelAtlasColumn, OwnModelColumn } from '../../db/tables/avatars';
import { AppError } from '../../lib/errors';
import type { StagedFile } from '../../lib/file-store';
import * as repo from './avatars.repository';
import { readAtlasUpload } from './own-model-atlas.upload';
import { OWN_MODEL_TEXTS } from './own-model.service';

const mediaUrl = (avatarId: string, fileId: string, ext: string) => `/config-files/avatars/${avatarId}/media/${fileId}.${ext}`;

async function* once(bytes: Buffer) {
  yield bytes;
}

/** The stored files of an own model: the model and, when made, its atlas's three. */
export function ownModelFileIds(column: OwnModelColumn): string[] {
  const a = column.atlas;
  return a ? [column.fileId, a.manifestId, a.imageId, a.stillId] : [column.fileId];
}

/** Where the player finds the atlas's manifest, and the card its still. */
export function ownAtlasUrls(avatarId: string, atlas: OwnModelAtlasColumn | undefined) {
  return atlas
    ? { manifestURL: mediaUrl(avatarId, atlas.manifestId, 'json'), stillURL: mediaUrl(avatarId, atlas.stillId, atlas.stillExt) }
    : null;
}

async function record(
  ctx: AppContext,
  trx: Transaction<DB>,
  avatarId: string,
  file: StagedFile,
  ext: string,
  contentType: string,
  kind: string,
) {
  await ctx.files.record(trx, file, { kind: 'avatar-atlas', contentType });
  await repo.insertMedia(trx, { id: file.id, avatar_id: avatarId, owner_id: file.ownerId, list: 'atlas', kind, ext });
}

/** Authorised before a byte is read: the owner's avatar (else 404), wearing an uploaded model
 *  (else 400), on a plan that may have one (else 403). */
async function ownModelOf(ctx: AppContext, ownerId: string, avatarId: string): Promise<OwnModelColumn> {
  const row = repo.isAvatarId(avatarId) ? await repo.find(ctx.db, ownerId, avatarId) : undefined;
  if (!row) throw AppError.notFound('Avatar');
  if (row.appearance_id !== OWN_MODEL_APPEARANCE || !row.own_model) throw AppError.invalid(OWN_ATLAS_TEXTS.noModel);
  const plan = (await repo.planOf(ctx.db, ownerId)) ?? 0;
  if (!allowsCustomImageAvatar(planName(plan))) throw AppError.forbidden(OWN_MODEL_TEXTS.upgrade);
  return row.own_model;
}

export async function storeOwnModelAtlas(
  ctx: AppContext,
  ownerId: string,
  avatarId: string,
  request: FastifyRequest,
): Promise<OwnModelAtlasResponse> {
  const model = await ownModelOf(ctx, ownerId, avatarId);
  const { manifest, atlas, still } = await readAtlasUpload(ctx, request, ownerId);
  let manifestFile: StagedFile | undefined;
  try {
    // The manifest names the stored atlas beside it (relative to the manifest's URL).
    const text = JSON.stringify({ ...manifest, atlas: `${atlas.file.id}.${atlas.type.ext}` });
    manifestFile = await ctx.files.stage(ownerId, once(Buffer.from(text)), {
      maxBytes: OWN_ATLAS_LIMITS.manifestBytes * 2,
      ext: 'json',
      tooLargeMessage: OWN_ATLAS_TEXTS.tooLarge('manifest', OWN_ATLAS_LIMITS.manifestBytes),
    });
    const column: OwnModelAtlasColumn = {
      manifestId: manifestFile.id,
      imageId: atlas.file.id,
      imageExt: atlas.type.ext,
      stillId: still.file.id,
      stillExt: still.type.ext,
    };
    const staged = manifestFile;
    await ctx.db.transaction().execute(async (trx) => {
      const row = await repo.findForUpdate(trx, ownerId, avatarId);
      // A new model saved meanwhile (or the catalogue chosen): this atlas is of another model.
      if (!row?.own_model || row.own_model.fileId !== model.fileId) throw AppError.invalid(OWN_ATLAS_TEXTS.changed);
      const old = row.own_model.atlas;
      if (old) for (const id of [old.manifestId, old.imageId, old.stillId]) await ctx.files.forget(trx, ownerId, id);
      await record(ctx, trx, avatarId, staged, 'json', 'application/json', 'json');
      await record(ctx, trx, avatarId, atlas.file, atlas.type.ext, atlas.type.contentType, 'image');
      await record(ctx, trx, avatarId, still.file, still.type.ext, still.type.contentType, 'image');
      // Not a save of the avatar: updated_at stays, so the editor's next Save is not stale.
      await repo.update(trx, ownerId, avatarId, { own_model: JSON.stringify({ ...row.own_model, atlas: column }) });
    });
    return { status: 'OK', ...ownAtlasUrls(avatarId, column)!, atlasBytes: atlas.file.size };
  } finally {
    await Promise.all([atlas.file, still.file, manifestFile].map((f) => ctx.files.discard(f)));
  }
}
