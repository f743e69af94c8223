// Environment → Background → Background step (spec 2 §2): Image/Video toggle, the catalogue's
// and the customer's own backgrounds with upload and delete, a colour with a picker (only while
// no background is selected), Transparent and Enable Background.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useSnackbar } from 'notistack';
import { useFormContext, useWatch } from 'react-hook-form';
import { TOAST_FILE_SIZE_MS } from '@parla/shared/limits';
import { UPLOAD_REF, type AvatarMediaItem } from '@parla/shared/schemas/avatar';
import { errorLines } from '../../../../lib/api-client';
import { useCatalogueEnvironments } from '../../api/get-catalogue';
import type { EditorValues } from '../../lib/editor-values';
import { checkUpload } from '../../lib/upload-check';
import { COLOR_MESSAGE, isCssColor } from '@parla/shared/media-checks';
import { useEditor, useObjectUrl } from './editor-context';
import { NONE_TILE, TileGrid, type Tile } from './tile-grid';
import { TRANSPARENT, useAvatarJson } from './use-avatar-json';

type Kind = 'image' | 'video';
const DEFAULT_COLOR = '#0b1020';

export function BackgroundStep({ disabled }: { disabled: boolean }) {
  const { enqueueSnackbar } = useSnackbar();
  const { uploads, setUpload } = useEditor();
  const { setValue, getValues } = useFormContext<EditorValues>();
  const media = useWatch<EditorValues, 'mediaDetails'>({ name: 'mediaDetails' });
  const { json, setPanel, update } = useAvatarJson();
  const env = useCatalogueEnvironments();
  const pending = uploads.backgroundImage;
  const pendingUrl = useObjectUrl(pending);
  const pendingKind: Kind | null = pending ? (pending.type.startsWith('video/') ? 'video' : 'image') : null;
  const selected = json.panel?.contentURL || null;
  const selectedIsVideo = Boolean(
    selected &&
    (env.data?.backgrounds.find((b) => b.url === selected)?.kind === 'video' ||
      media.backgroundImage.find((m) => m.url === selected)?.kind === 'video' ||
      (selected === UPLOAD_REF.backgroundImage && pendingKind === 'video')),
  );
  const [kind, setKind] = useState<Kind>(selectedIsVideo ? 'video' : 'image');
  const transparent = TRANSPARENT.test(json.Scene?.background ?? '');

  const removeMedia = (m: AvatarMediaItem) => {
    const md = getValues('mediaDetails');
    setValue('mediaDetails', { ...md, backgroundImage: md.backgroundImage.filter((x) => x.id !== m.id) }, { shouldDirty: true });
    if (selected === m.url) setPanel({ contentURL: '' });
  };

  const own = media.backgroundImage.filter((m) => m.kind === kind);
  const tiles: Tile[] = [
    ...(env.data?.backgrounds ?? []).filter((b) => b.kind === kind).map((b) => ({ key: b.url, label: b.name, imageURL: b.previewURL })),
    ...own.map((m, i) => ({
      key: m.url,
      label: `Your ${kind} ${i + 1}`,
      imageURL: kind === 'image' ? m.url : null,
      videoURL: kind === 'video' ? m.url : null,
      onDelete: () => removeMedia(m),
    })),
    ...(pending && pendingKind === kind
      ? [
          {
            key: UPLOAD_REF.backgroundImage,
            label: (pending as File).name ?? 'New upload',
            imageURL: kind === 'image' ? pendingUrl : null,
            videoURL: kind === 'video' ? pendingUrl : null,
            badge: 'Not saved yet',
            onDelete: () => {
              setUpload('backgroundImage', undefined);
              if (selected === UPLOAD_REF.backgroundImage) setPanel({ contentURL: '' });
            },
          },
        ]
      : []),
  ];

  const colour = json.panel?.BgColor ?? '';
  const selectedLabel = selected
    ? (env.data?.backgrounds.find((b) => b.url === selected)?.name ??
      (selected === UPLOAD_REF.backgroundImage
        ? `${(pending as File | undefined)?.name ?? 'your upload'} (not saved yet)`
        : `your ${media.backgroundImage.find((m) => m.url === selected)?.kind ?? 'image'}`))
    : null;
  const badColor = colour.trim() !== '' && !isCssColor(colour);

  const onFile = async (file: File) => {
    const problem = await checkUpload(file, [kind], { sixteenByNine: true });
    if (problem) {
      enqueueSnackbar(problem, { variant: 'error', autoHideDuration: TOAST_FILE_SIZE_MS });
      return;
    }
    setUpload('backgroundImage', file);
    setPanel({ contentURL: UPLOAD_REF.backgroundImage, Enable: true });
  };

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={kind}
        onChange={(_e, v: Kind | null) => v && setKind(v)}
        aria-label="Background kind"
      >
        <ToggleButton value="image">Image</ToggleButton>
        <ToggleButton value="video">Video</ToggleButton>
      </ToggleButtonGroup>
      {env.isPending && <CircularProgress size={28} aria-label="Loading backgrounds" />}
      {env.isError && <Alert severity="error">{errorLines(env.error).join(' ')}</Alert>}
      <TileGrid
        label={kind === 'image' ? 'Background images' : 'Background videos'}
        tiles={tiles}
        selected={selected}
        disabled={disabled}
        none={{ label: kind === 'image' ? 'No background image' : 'No background video' }}
        onSelect={(key) => setPanel(key === NONE_TILE ? { contentURL: '' } : { contentURL: key, Enable: true })}
        upload={{
          label: kind === 'image' ? 'Upload image' : 'Upload video',
          accept: kind === 'image' ? 'image/png,image/jpeg,image/webp' : 'video/mp4,video/webm',
          hint: kind === 'image' ? '16:9 images, up to 10MB' : 'MP4 or WebM, up to 25MB',
          onFile: (file: File) => void onFile(file),
        }}
      />
      <Typography role="status" variant="body2" color="text.secondary">
        {backgroundSummary({
          transparent,
          enabled: json.panel?.Enable !== false,
          selected: selectedLabel,
          colour: colour || DEFAULT_COLOR,
        })}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
        <TextField
          label="Background Color"
          size="small"
          margin="none"
          sx={{ maxWidth: 220 }}
          value={json.panel?.BgColor ?? ''}
          placeholder={DEFAULT_COLOR}
          disabled={disabled || Boolean(selected)}
          onChange={(e) => setPanel({ BgColor: e.target.value })}
          error={badColor}
          helperText={
            badColor ? COLOR_MESSAGE : selected ? `Choose "No background ${kind}" to use a color.` : 'Used when no background is selected.'
          }
        />
        <Box
          component="input"
          type="color"
          aria-label="Pick a background color"
          disabled={disabled || Boolean(selected)}
          value={/^#[0-9a-f]{6}$/i.test(json.panel?.BgColor ?? '') ? json.panel!.BgColor : DEFAULT_COLOR}
          onChange={(e: React.ChangeEvent<HTMLInputElement>) => setPanel({ BgColor: e.target.value })}
          sx={{ width: 44, height: 40, p: 0, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'transparent', mb: 2.5 }}
        />
        <FormControlLabel
          control={
            <Checkbox
              checked={transparent}
              disabled={disabled}
              onChange={(e) =>
                update((j) => ({
                  ...j,
                  Scene: { ...j.Scene, background: `transparent: ${e.target.checked}` },
                  panel: { ...j.panel, Enable: !e.target.checked },
                }))
              }
            />
          }
          label="Transparent"
          sx={{ mb: 2.5 }}
        />
        <FormControlLabel
          control={
            <Checkbox checked={json.panel?.Enable !== false} disabled={disabled} onChange={(e) => setPanel({ Enable: e.target.checked })} />
          }
          label="Enable Background"
          sx={{ mb: 2.5 }}
        />
      </Box>
    </Box>
  );
}

/** One sentence saying what the saved avatar will show behind the face. */
function backgroundSummary(s: { transparent: boolean; enabled: boolean; selected: string | null; colour: string }): string {
  if (s.transparent) return 'Visitors will see a transparent background: the page around the avatar shows through.';
  if (!s.enabled) return 'Visitors will see no background: Enable Background is off.';
  if (s.selected) return `Visitors will see the background ${s.selected}.`;
  return `Visitors will see the color ${s.colour}.`;
}
