// The live preview (spec 2 §2): the player in a 240 px iframe, through the avatar's access link
// with query options; before the avatar exists (or while a new appearance is being tried), the
// player's preview mode for the chosen appearance.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useWatch } from 'react-hook-form';
import { AVATAR_PREVIEW_HEIGHT_PX } from '@parla/shared/limits';
import { accessLink } from '@parla/shared/schemas/avatar';
import type { EditorValues } from '../../lib/editor-values';
import { useEditor } from './editor-context';

const PREVIEW_OPTIONS = { hideChatHistory: 'true', hideChatInput: 'true', hideFS: 'true', controlButtonPosition: 'right' };

export function previewSource(origin: string, saved: { id: string; token: string; updated: string; appearanceId: string } | null, appearanceId: string): string | null {
  if (saved && appearanceId === saved.appearanceId) return accessLink(origin, saved.id, saved.token, { ...PREVIEW_OPTIONS, v: saved.updated });
  if (appearanceId) return `${origin}/avatar/preview?${new URLSearchParams({ appearanceId, ...PREVIEW_OPTIONS }).toString()}`;
  return null;
}

export function PreviewFrame() {
  const { saved } = useEditor();
  const appearanceId = useWatch<EditorValues, 'appearanceId'>({ name: 'appearanceId' });
  const src = previewSource(window.location.origin, saved, appearanceId);
  return (
    <Box sx={{ height: AVATAR_PREVIEW_HEIGHT_PX, borderRadius: 1.5, overflow: 'hidden', bgcolor: '#111827', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      {src ? (
        <Box
          component="iframe"
          key={src}
          title="Avatar preview"
          src={src}
          allow="camera; microphone; fullscreen; autoplay; encrypted-media; picture-in-picture"
          sx={{ width: '100%', height: AVATAR_PREVIEW_HEIGHT_PX, border: 0, display: 'block' }}
        />
      ) : (
        <Typography variant="body2" sx={{ color: 'grey.400', px: 3, textAlign: 'center' }}>
          Choose an appearance to see it here.
        </Typography>
      )}
    </Box>
  );
}
