// The live preview (spec 2 §2): the player in a 240 px iframe, through the avatar's access link
// with query options; before the avatar exists (or while a new appearance is being tried), the
// player's preview mode for the chosen appearance. Unsaved catalogue choices of the Environment
// tab are passed as the player's scene parameters, so the preview shows them before Save.
import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useWatch } from 'react-hook-form';
import { AVATAR_PREVIEW_HEIGHT_PX } from '@parla/shared/limits';
import type { CatalogueEnvironmentsResponse } from '@parla/shared/schemas/catalogue';
import type { AvatarJson } from '@parla/shared/schemas/player';
import { accessLink, LIGHT_PRESET_KEY } from '@parla/shared/schemas/avatar';
import { useCatalogueEnvironments } from '../../api/get-catalogue';
import type { EditorValues } from '../../lib/editor-values';
import { useEditor } from './editor-context';
import { TRANSPARENT } from './use-avatar-json';

const PREVIEW_OPTIONS = { hideChatHistory: 'true', hideChatInput: 'true', hideFS: 'true', controlButtonPosition: 'right' };

/** The player's scene parameters for the catalogue items the draft uses (own uploads show after Save). */
export function sceneParams(json: AvatarJson | undefined, env: CatalogueEnvironmentsResponse | undefined): Record<string, string> {
  if (!json || !env) return {};
  const out: Record<string, string> = {};
  const contentURL = json.panel?.contentURL;
  const bg = contentURL ? env.backgrounds.find((b) => b.url === contentURL) : undefined;
  if (TRANSPARENT.test(json.Scene?.background ?? '')) out.transparent = 'true';
  else if (bg) out.backgroundId = bg.id;
  else if (!contentURL && json.panel?.BgColor) out.backgroundColor = json.panel.BgColor;
  const light = json.Lights?.[0]?.[LIGHT_PRESET_KEY];
  if (typeof light === 'string') out.lightingId = light;
  const model = json.Environment?.['gltf-model'];
  const environment = model ? env.environments.find((e) => e.modelURL === model) : undefined;
  if (environment) out.environmentId = environment.id;
  return out;
}

export function previewSource(
  origin: string,
  saved: { id: string; token: string; updated: string; appearanceId: string } | null,
  appearanceId: string,
  scene: Record<string, string> = {},
): string | null {
  if (saved && appearanceId === saved.appearanceId)
    return accessLink(origin, saved.id, saved.token, { ...PREVIEW_OPTIONS, ...scene, v: saved.updated });
  if (appearanceId) return `${origin}/avatar/preview?${new URLSearchParams({ appearanceId, ...PREVIEW_OPTIONS, ...scene }).toString()}`;
  return null;
}

/** The value once it has stopped changing for a moment (a colour being typed reloads the player once). */
function useSettled<T>(value: T, ms = 700): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(t);
  }, [value, ms]);
  return settled;
}

export function PreviewFrame() {
  const { saved } = useEditor();
  const appearanceId = useWatch<EditorValues, 'appearanceId'>({ name: 'appearanceId' });
  const json = useWatch<EditorValues, 'avatarJson'>({ name: 'avatarJson' });
  const env = useCatalogueEnvironments();
  const src = useSettled(previewSource(window.location.origin, saved, appearanceId, sceneParams(json, env.data)));
  return (
    <Box
      sx={{
        height: AVATAR_PREVIEW_HEIGHT_PX,
        borderRadius: 1.5,
        overflow: 'hidden',
        bgcolor: '#111827',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
      }}
    >
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
