// The customer's own 3D avatar in the Appearance tab (issue 36 item 1, decision 123): an upload
// tile in the UPPER BODY 3D and FULL BODY 3D grids for PRO and ENTERPRISE (other plans get the
// upgrade prompt, as for custom image avatars), the chosen file as a "Not saved yet" tile, and
// after a save what the server found in the model (mouth shapes, head bone, blink).
import Alert from '@mui/material/Alert';
import { useSnackbar } from 'notistack';
import { useFormContext } from 'react-hook-form';
import type { DhType } from '@parla/shared/enums';
import { TOAST_FILE_SIZE_MS } from '@parla/shared/limits';
import { allowsCustomImageAvatar, planName } from '@parla/shared/plans';
import { OWN_MODEL_APPEARANCE } from '@parla/shared/schemas/avatar';
import { subscriptionTypeOf } from '../../api/get-account-info';
import type { EditorValues } from '../../lib/editor-values';
import { checkUpload } from '../../lib/upload-check';
import { useEditor } from './editor-context';
import type { Tile, TileGridProps } from './tile-grid';

export const OWN_MODEL_UPLOAD_LABEL = 'Upload your 3D avatar';

/** The tiles, the upload and what to say about the own model in the grid of `dhType`. */
export function useOwnModel(dhType: DhType, onUpgrade: () => void) {
  const { enqueueSnackbar } = useSnackbar();
  const { saved, uploads, setUpload, accountInfo } = useEditor();
  const { setValue } = useFormContext<EditorValues>();
  const is3d = dhType === '2d' || dhType === '3d';
  const allowed = allowsCustomImageAvatar(planName(subscriptionTypeOf(accountInfo)));
  const pending = uploads.avatarModel as File | undefined;
  const stored = saved?.ownModel && saved.dhType === dhType ? saved.ownModel : null;

  const wear = () => {
    setValue('appearanceId', OWN_MODEL_APPEARANCE, { shouldDirty: true });
    setValue('dhType', dhType, { shouldDirty: true });
  };
  const onFile = async (file: File) => {
    const problem = await checkUpload(file, ['glb']);
    if (problem) {
      enqueueSnackbar(problem, { variant: 'error', autoHideDuration: TOAST_FILE_SIZE_MS });
      return;
    }
    setUpload('avatarModel', file);
    wear();
  };

  const tiles: Tile[] = !is3d
    ? []
    : pending
      ? [{ key: OWN_MODEL_APPEARANCE, label: pending.name, badge: 'Not saved yet', onDelete: () => setUpload('avatarModel', undefined) }]
      : stored
        ? [{ key: OWN_MODEL_APPEARANCE, label: 'Your 3D avatar', imageURL: saved?.avatarPhotoURL ?? saved?.stillURL }]
        : [];
  const upload: TileGridProps['upload'] | undefined =
    is3d && allowed && accountInfo
      ? {
          label: OWN_MODEL_UPLOAD_LABEL,
          accept: '.glb,.vrm,model/gltf-binary',
          hint: '.glb or .vrm, up to 25MB',
          onFile: (f) => void onFile(f),
        }
      : undefined;
  /** Other plans see the upload, and the upgrade prompt when they choose it. */
  const gated = is3d && !allowed && !!accountInfo;
  const note =
    stored && !pending ? (
      <Alert severity="success" sx={{ mt: 1.5 }}>
        Your 3D avatar talks. {stored.description}
      </Alert>
    ) : null;
  return { tiles, upload, gated, note, select: wear, onUpgrade };
}
