// The live preview (spec 2 §2, issue 36 item 6): the player visitors get, at a usable size, in
// its preview mode (/avatar/preview): the saved avatar (when there is one) under the draft's
// unsaved appearance, catalogue background, lighting, 3D environment and language, talking with
// the player's in-page echo. It is never a conversation on the server, so a preview is never
// billed and never listed as an online user. LET'S CHAT starts it; it greets with the draft's
// wake-up message, and echoes what the customer types, in the built-in voice visitors will hear
// (`voice`, lib/preview-voice.ts): the player asks this frame for each reply's audio by
// postMessage and the server says it (POST /api/tts/preview).
import { useEffect, useRef, useState, type RefObject } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useWatch } from 'react-hook-form';
import { AVATAR_PREVIEW_HEIGHT_PX } from '@parla/shared/limits';
import type { CatalogueEnvironmentsResponse } from '@parla/shared/schemas/catalogue';
import type { AvatarJson } from '@parla/shared/schemas/player';
import { LIGHT_PRESET_KEY } from '@parla/shared/schemas/avatar';
import { PREVIEW_SPEECH_MESSAGE, isEmbeddedVoiceId } from '@parla/shared/embedded-voices';
import { useBrainCatalogue } from '../../../brain/api/get-brain-catalogue';
import { useCatalogueAvatars, useCatalogueEnvironments } from '../../api/get-catalogue';
import { previewSpeech } from '../../api/preview-speech';
import { previewVoice } from '../../lib/preview-voice';
import type { EditorValues } from '../../lib/editor-values';
import { useEditor } from './editor-context';
import { TRANSPARENT } from './use-avatar-json';
import { useOwnModelAtlas } from './use-own-model-atlas';

const PREVIEW_OPTIONS = { hideFS: 'true' };
export const PREVIEW_GREETING = 'Hello! This is how I will look and sound on your website.';
const GREETING_MAX = 300;

/** What the draft says beyond the scene: the language it speaks and its first words. */
export function talkParams(values: { language?: string | undefined; wakeUpMessage?: string | undefined }): Record<string, string> {
  const language = values.language?.split(',')[0]?.trim();
  const greeting = values.wakeUpMessage?.trim().slice(0, GREETING_MAX) || PREVIEW_GREETING;
  return { ...(language ? { language } : {}), greeting };
}

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
  saved: { id: string; token: string | null; updated: string } | null,
  appearanceId: string,
  scene: Record<string, string> = {},
): string | null {
  if (!appearanceId) return null;
  const base = saved ? { avatarId: saved.id, ...(saved.token ? { token: saved.token } : {}), v: saved.updated } : {};
  return `${origin}/avatar/preview?${new URLSearchParams({ ...base, appearanceId, ...PREVIEW_OPTIONS, ...scene }).toString()}`;
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

/** Answers the preview player's requests for a reply's audio (same origin, from its own frame only). */
function usePreviewSpeech(frame: RefObject<HTMLIFrameElement | null>) {
  useEffect(() => {
    const onMessage = (event: MessageEvent<{ type?: string; id?: unknown; text?: unknown; voice?: unknown }>) => {
      const target = frame.current?.contentWindow;
      const m = event.data;
      if (!target || event.source !== target || event.origin !== window.location.origin || m?.type !== PREVIEW_SPEECH_MESSAGE) return;
      if (typeof m.id !== 'number' || typeof m.text !== 'string' || typeof m.voice !== 'string' || !isEmbeddedVoiceId(m.voice)) return;
      const answer = (speech?: unknown) => target.postMessage({ type: PREVIEW_SPEECH_MESSAGE, id: m.id, speech }, window.location.origin);
      previewSpeech({ voice: m.voice, text: m.text }).then(answer, () => answer());
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [frame]);
}

export function PreviewFrame() {
  const { saved } = useEditor();
  const frame = useRef<HTMLIFrameElement | null>(null);
  usePreviewSpeech(frame);
  const appearanceId = useWatch<EditorValues, 'appearanceId'>({ name: 'appearanceId' });
  const json = useWatch<EditorValues, 'avatarJson'>({ name: 'avatarJson' });
  const language = useWatch<EditorValues>({ name: 'customData.agent_pipeline_config.stt.languages' as never }) as unknown;
  const wakeUpMessage = useWatch<EditorValues, 'wakeUpMessage'>({ name: 'wakeUpMessage' });
  const setupMode = useWatch<EditorValues, 'setupMode'>({ name: 'setupMode' });
  const tts = useWatch<EditorValues>({ name: 'customData.agent_pipeline_config.tts' as never }) as unknown;
  const env = useCatalogueEnvironments();
  const brains = useBrainCatalogue();
  const appearances = useCatalogueAvatars();
  const spoken = typeof language === 'string' ? language.split(',')[0]?.trim() : undefined;
  const voice = previewVoice(
    brains.data,
    { setupMode: setupMode ?? undefined, tts: tts && typeof tts === 'object' ? tts : undefined, language: spoken },
    appearances.data?.avatars.find((a) => a.id === appearanceId)?.voiceGender,
  );
  const talk = {
    ...talkParams({ language: typeof language === 'string' ? language : undefined, wakeUpMessage: wakeUpMessage ?? undefined }),
    ...(voice ? { voice } : {}),
  };
  const src = useSettled(previewSource(window.location.origin, saved, appearanceId, { ...sceneParams(json, env.data), ...talk }));
  useOwnModelAtlas(frame);
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
          ref={frame}
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
