// The rules of a customer's own 3D avatar (decision 123): who may upload one (the plans that
// may have a custom image avatar, spec 2 §2), which avatar types wear one, and what is kept of
// it (the file, as an avatar media item of list 'model', and the rig the model check found).
import { allowsCustomImageAvatar, planName } from '@parla/shared/plans';
import { describeRig, type OwnModelRig } from '@parla/shared/own-model';
import { AVATAR_FAIL_REASONS, OWN_MODEL_APPEARANCE, type OwnModelInfo, type SaveAvatarRequest } from '@parla/shared/schemas/avatar';
import type { AppContext } from '../../context';
import type { OwnModelColumn } from '../../db/tables/avatars';
import { AppError } from '../../lib/errors';
import * as repo from './avatars.repository';
import { checkModelInChild, type ModelCheckLimits } from './own-model.check';
import type { StagedUpload } from './avatars.upload';

export const OWN_MODEL_TEXTS = {
  upgrade: 'Higher Subscription Plan Required: your own 3D avatar is part of the PRO and ENTERPRISE plans.',
  type: 'Your own 3D avatar is an upper body 3D or full body 3D avatar.',
  missing: 'Upload your 3D avatar (.glb or .vrm) to use it as the appearance.',
  notChosen: 'Choose your uploaded 3D avatar as the appearance to save it.',
  refused: (problem: string) => `This 3D avatar cannot be used: ${problem}`,
} as const;

export const wearsOwnModel = (p: Pick<SaveAvatarRequest, 'appearanceId'>) => p.appearanceId === OWN_MODEL_APPEARANCE;

/**
 * Checks a save that involves an own model, before its transaction: the avatar type, the plan,
 * then the model itself in the model-check child. Answers the new column value when a model was
 * uploaded (its file recorded in the same transaction), undefined otherwise.
 */
export async function checkOwnModelSave(
  ctx: AppContext,
  ownerId: string,
  p: SaveAvatarRequest,
  uploads: StagedUpload[],
  limits?: ModelCheckLimits,
): Promise<OwnModelColumn | undefined> {
  const upload = uploads.find((u) => u.field === 'avatarModel');
  if (!wearsOwnModel(p)) {
    if (upload) throw AppError.invalid(OWN_MODEL_TEXTS.notChosen);
    return undefined;
  }
  if (p.dhType !== '2d' && p.dhType !== '3d') throw AppError.invalid(OWN_MODEL_TEXTS.type);
  if (!upload) return undefined;
  const plan = (await repo.planOf(ctx.db, ownerId)) ?? 0;
  if (!allowsCustomImageAvatar(planName(plan))) throw AppError.forbidden(OWN_MODEL_TEXTS.upgrade);
  const answer = await checkModelInChild({ path: upload.file.absPath, maxBytes: upload.file.size }, limits);
  if ('problem' in answer) throw AppError.invalid(OWN_MODEL_TEXTS.refused(answer.problem), AVATAR_FAIL_REASONS.fileType);
  return { fileId: upload.file.id, ext: upload.type.ext, rig: answer.rig };
}

/** What the editor shows of a stored own model. */
export function ownModelInfo(
  avatarId: string,
  column: OwnModelColumn | null,
  mediaUrl: (id: string, fileId: string, ext: string) => string,
): OwnModelInfo | null {
  if (!column) return null;
  const rig: OwnModelRig = column.rig;
  return {
    url: mediaUrl(avatarId, column.fileId, column.ext),
    format: rig.format,
    convention: rig.convention,
    headBone: rig.headBone,
    missing: rig.missing,
    description: describeRig(rig),
  };
}
