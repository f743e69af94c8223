// Environment → 3D Environment (spec 2 §2): the catalogue's environments and the customer's own
// .glb models (upload up to 25MB, delete), for full-body avatars.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useSnackbar } from 'notistack';
import { useFormContext, useWatch } from 'react-hook-form';
import { TOAST_FILE_SIZE_MS } from '@parla/shared/limits';
import { UPLOAD_REF, type AvatarMediaItem } from '@parla/shared/schemas/avatar';
import { errorLines } from '../../../../lib/api-client';
import { useCatalogueEnvironments } from '../../api/get-catalogue';
import type { EditorValues } from '../../lib/editor-values';
import { checkUpload } from '../../lib/upload-check';
import { useEditor } from './editor-context';
import { NONE_TILE, TileGrid, type Tile } from './tile-grid';
import { useAvatarJson } from './use-avatar-json';

const PLACEMENT = { position: '0 0 0', rotation: '0 0 0', scale: '1 1 1', shadow: true };

export function Environment3dStep({ disabled }: { disabled: boolean }) {
  const { enqueueSnackbar } = useSnackbar();
  const { uploads, setUpload } = useEditor();
  const { setValue, getValues } = useFormContext<EditorValues>();
  const media = useWatch<EditorValues, 'mediaDetails'>({ name: 'mediaDetails' });
  const env = useCatalogueEnvironments();
  const { json, update } = useAvatarJson();
  const selected = json.Environment?.['gltf-model'] || null;

  const choose = (url: string | null) =>
    update((j) => {
      const next = { ...j };
      if (url) next.Environment = { ...PLACEMENT, ...j.Environment, 'gltf-model': url };
      else delete next.Environment;
      return next;
    });

  const removeMedia = (m: AvatarMediaItem) => {
    const md = getValues('mediaDetails');
    setValue('mediaDetails', { ...md, scene: md.scene.filter((x) => x.id !== m.id) }, { shouldDirty: true });
    if (selected === m.url) choose(null);
  };

  const tiles: Tile[] = [
    ...(env.data?.environments ?? []).map((e) => ({ key: e.modelURL, label: e.name, imageURL: e.previewURL })),
    ...media.scene.map((m, i) => ({ key: m.url, label: `Your 3D model ${i + 1}`, onDelete: () => removeMedia(m) })),
    ...(uploads.scene
      ? [
          {
            key: UPLOAD_REF.scene,
            label: (uploads.scene as File).name ?? 'New model',
            badge: 'Not saved yet',
            onDelete: () => {
              setUpload('scene', undefined);
              if (selected === UPLOAD_REF.scene) choose(null);
            },
          },
        ]
      : []),
  ];

  const onFile = async (file: File) => {
    const problem = await checkUpload(file, ['glb']);
    if (problem) {
      enqueueSnackbar(problem, { variant: 'error', autoHideDuration: TOAST_FILE_SIZE_MS });
      return;
    }
    setUpload('scene', file);
    choose(UPLOAD_REF.scene);
  };

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      {env.isPending && <CircularProgress size={28} aria-label="Loading environments" />}
      {env.isError && <Alert severity="error">{errorLines(env.error).join(' ')}</Alert>}
      <TileGrid
        label="3D environments"
        tiles={tiles}
        selected={selected}
        disabled={disabled}
        none={{ label: 'No 3D environment' }}
        onSelect={(key) => choose(key === NONE_TILE ? null : key)}
        upload={{
          label: 'Upload .glb',
          accept: '.glb,model/gltf-binary',
          hint: 'Your own 3D model, up to 25MB',
          onFile: (file: File) => void onFile(file),
        }}
      />
    </Box>
  );
}
