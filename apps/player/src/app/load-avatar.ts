// Where the player's avatar comes from: the public endpoint for a saved avatar, or — in the
// editor's preview (/avatar/preview?appearanceId=...) — a catalogue appearance with the scene
// chosen in the query. Scene parameters may also override a saved avatar's scene, so the
// editor can preview unsaved environment choices. The editor previews a saved avatar through
// the preview page too (`/avatar/preview?avatarId=…&token=…`, issue 36 item 6): its saved
// settings under the unsaved ones, talking with the in-page echo, so a preview is never a
// conversation on the server (never billed, never an online user).
import type { CatalogueAvatarsResponse, CatalogueEnvironmentsResponse } from '@parla/shared/schemas/catalogue';
import type { PublicAvatar, PublicBackground } from '@parla/shared/schemas/player';
import { isSafeBackground, parseFlag } from '@parla/shared/embed-params';
import { isAvatarId } from '@parla/shared/schemas/avatar-id';

export type LoadResult = { ok: true; avatar: PublicAvatar } | { ok: false; reason: 'not-available' | 'failed' };

export interface PageRoute {
  kind: 'avatar' | 'preview';
  avatarId: string;
}

/** The page's avatar, taken exactly as the server checked it: `/avatar/preview` or
 *  `/avatar/{lower-case UUID}` (schemas/avatar-id.ts), nothing decoded, trimmed or case-folded, so
 *  the player never loads an avatar other than the one whose framing rules the page was sent with. */
export function routeOf(pathname: string): PageRoute | null {
  const m = /^\/avatar\/([^/]+)$/.exec(pathname);
  if (!m) return null;
  const id = m[1]!;
  if (id === 'preview') return { kind: 'preview', avatarId: id };
  return isAvatarId(id) ? { kind: 'avatar', avatarId: id } : null;
}

async function getJson<T>(url: string): Promise<{ status: number; body: T | null }> {
  const res = await fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  return { status: res.status, body: res.ok ? ((await res.json()) as T) : null };
}

const SCENE_PARAMS = ['appearanceId', 'backgroundId', 'backgroundColor', 'transparent', 'lightingId', 'environmentId'];

async function applySceneOverrides(avatar: PublicAvatar, q: URLSearchParams): Promise<PublicAvatar> {
  if (!SCENE_PARAMS.some((p) => q.has(p))) return avatar;
  const [avatars, envs] = await Promise.all([
    getJson<CatalogueAvatarsResponse>('/api/catalogue/avatars'),
    getJson<CatalogueEnvironmentsResponse>('/api/catalogue/environments'),
  ]);
  const out: PublicAvatar = structuredClone(avatar);
  const appearance = avatars.body?.avatars.find((a) => a.id === q.get('appearanceId'));
  if (appearance && appearance.type !== 'vba') {
    out.appearance = {
      id: appearance.id,
      modelURL: appearance.modelURL,
      previewURL: appearance.previewURL,
      ...(appearance.atlasURL ? { atlasURL: appearance.atlasURL } : {}),
      ...(appearance.lightModelURL ? { lightModelURL: appearance.lightModelURL } : {}),
    };
    out.dhType = appearance.type;
    out.voice = { ...out.voice, gender: appearance.voiceGender };
    // A catalogue preview takes the appearance's name; a saved avatar keeps its own.
    if (!out.name) out.name = appearance.name;
  }
  const bg = envs.body?.backgrounds.find((b) => b.id === q.get('backgroundId'));
  const color = q.get('backgroundColor');
  let background: PublicBackground | null = null;
  if (parseFlag(q.get('transparent')) === true) background = { kind: 'transparent' };
  else if (bg) background = { kind: bg.kind, url: bg.url };
  else if (color && isSafeBackground(color) && !color.includes('/')) background = { kind: 'color', color };
  if (background) out.scene = { ...out.scene, background };
  const light = envs.body?.lights.find((l) => l.id === q.get('lightingId'));
  if (light) out.scene = { ...out.scene, lighting: light.preset };
  const env =
    envs.body?.environments.find((e) => e.id === q.get('environmentId')) ??
    (out.dhType === '3d' && !out.scene.environment ? envs.body?.environments[0] : undefined);
  if (env) out.scene = { ...out.scene, environment: { modelURL: env.modelURL, staging: env.staging } };
  if (out.dhType === '2d' && !out.scene.lighting && envs.body?.lights[0])
    out.scene = { ...out.scene, lighting: envs.body.lights[0].preset };
  return out;
}

/** A preview avatar: a catalogue appearance with an echo brain and default settings. */
function previewBase(): PublicAvatar {
  return {
    id: 'preview',
    name: '',
    dhType: 'image',
    engine: 'Echo',
    appearance: { id: '', modelURL: '', previewURL: '' },
    scene: { background: { kind: 'color', color: '#dfe6ef' }, lighting: null, environment: null },
    avatarJson: { Subtitle: { Enabled: true } },
    clientJson: {},
    language: 'en-US',
    voice: { provider: 'browser', gender: 'neutral', wordsPerSecond: 3 },
    embedDefaults: {},
  };
}

const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

const publicUrl = (avatarId: string, token: string | null) =>
  `/api/public/avatar/${encodeURIComponent(avatarId)}${token ? `?token=${encodeURIComponent(token)}` : ''}`;

/** The saved avatar the editor previews, as the preview avatar (echo, id 'preview'); null when
 *  none is named or it cannot be read (then the catalogue appearance alone is shown). */
async function savedBase(q: URLSearchParams): Promise<PublicAvatar | null> {
  const avatarId = q.get('avatarId');
  if (!avatarId || !isAvatarId(avatarId)) return null;
  const res = await getJson<PublicAvatar>(publicUrl(avatarId, q.get('token')));
  return res.body ? { ...res.body, id: 'preview', engine: 'Echo' } : null;
}

export async function loadAvatar(route: PageRoute, q: URLSearchParams): Promise<LoadResult> {
  try {
    if (route.kind === 'preview') {
      if (!q.get('appearanceId')) return { ok: false, reason: 'not-available' };
      const avatar = await applySceneOverrides((await savedBase(q)) ?? previewBase(), q);
      // The language the editor's unsaved Brain tab says (the voice and the lips follow it).
      const language = q.get('language');
      if (language && LANGUAGE_TAG.test(language)) avatar.language = language;
      return avatar.appearance.modelURL ? { ok: true, avatar } : { ok: false, reason: 'not-available' };
    }
    const res = await getJson<PublicAvatar>(publicUrl(route.avatarId, q.get('token')));
    if (res.status === 404 || res.status === 401 || res.status === 403) return { ok: false, reason: 'not-available' };
    if (!res.body) return { ok: false, reason: 'failed' };
    return { ok: true, avatar: await applySceneOverrides(res.body, q) };
  } catch {
    return { ok: false, reason: 'failed' };
  }
}
