// The card's Avatar Photo: while the card is being edited, clicking it picks an image that goes
// through the square crop dialog; the cropped photo is saved with the avatar. Without a photo the
// card shows the appearance's face (the catalogue's picture, issue 36 item 6), a letter only when
// neither exists.
import { lazy, Suspense, useEffect, useState } from 'react';
import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
import ButtonBase from '@mui/material/ButtonBase';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import { useSnackbar } from 'notistack';
import { TOAST_FILE_SIZE_MS } from '@parla/shared/limits';
import { uploadProblem } from '../lib/upload-check';

// The crop dialog (and its cropper library) is fetched when a photo is picked.
const PhotoCropDialog = lazy(() => import('./photo-crop-dialog').then((m) => ({ default: m.PhotoCropDialog })));

export function AvatarPhoto({
  name,
  url,
  faceURL = null,
  editable,
  onPhoto,
}: {
  name: string;
  url: string | null;
  faceURL?: string | null;
  editable: boolean;
  onPhoto(photo: Blob): void;
}) {
  const { enqueueSnackbar } = useSnackbar();
  const [source, setSource] = useState<string | null>(null);
  useEffect(
    () => () => {
      if (source) URL.revokeObjectURL(source);
    },
    [source],
  );

  const picture = (
    <Avatar
      src={url ?? faceURL ?? undefined}
      alt={url ? `Photo of ${name}` : faceURL ? `Face of ${name}` : undefined}
      sx={{ width: 64, height: 64, bgcolor: 'primary.light', fontSize: 26, '& img': { objectPosition: 'center 20%' } }}
    >
      {name.trim().charAt(0).toUpperCase() || '?'}
    </Avatar>
  );
  if (!editable) return picture;

  return (
    <>
      <ButtonBase component="label" aria-label="Change avatar photo" sx={{ borderRadius: '50%' }}>
        <Badge
          overlap="circular"
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          badgeContent={
            <PhotoCameraIcon
              sx={{
                fontSize: 16,
                bgcolor: 'background.paper',
                borderRadius: '50%',
                p: 0.25,
                color: 'primary.main',
                boxShadow: 1,
              }}
            />
          }
        >
          {picture}
        </Badge>
        <input
          hidden
          type="file"
          accept="image/png,image/jpeg,image/webp"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (!file) return;
            const problem = uploadProblem(file, ['image']);
            if (problem) enqueueSnackbar(problem, { variant: 'error', autoHideDuration: TOAST_FILE_SIZE_MS });
            else setSource(URL.createObjectURL(file));
          }}
        />
      </ButtonBase>
      {source && (
        <Suspense fallback={null}>
          <PhotoCropDialog
            src={source}
            onCancel={() => setSource(null)}
            onCropped={(photo) => {
              setSource(null);
              onPhoto(photo);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
