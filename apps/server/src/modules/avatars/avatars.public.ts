// The player's view of an avatar (GET /api/public/avatar/{id}?token=...): only what a browser
// on a customer's site needs to show and voice the avatar. Never keys, endpoints, owner data or
// the brain's configuration. An avatar whose encryption option is None is open to anyone with
// its id; otherwise the access token must match.
import { isSpokenLanguage, DEFAULT_SPOKEN_LANGUAGE } from '@parla/shared/languages';
import { DEFAULT_WORDS_PER_SEC } from '@parla/shared/limits';
import { readEmbedParams } from '@parla/shared/embed-params';
import type { CatalogueEnvironmentsResponse, EnvironmentStaging, LightingPreset } from '@parla/shared/schemas/catalogue';
import {
  avatarJson as avatarJsonSchema,
  clientJson as clientJsonSchema,
  DEFAULT_AVATAR_JSON,
  DEFAULT_CLIENT_JSON,
  embedParams,
  type AvatarJson,
  type PublicAvatar,
  type PublicBackground,
} from '@parla/shared/schemas/player';
import { ENCRYPTION_NONE, LIGHT_PRESET_KEY, OWN_MODEL_APPEARANCE, engineName, type CustomData } from '@parla/shared/schemas/avatar';
import type { CatalogueAvatar } from '@parla/shared/schemas/catalogue';
import type { DhType } from '@parla/shared/enums';
import { DEFAULT_ENC_KEY_ALIAS } from '@parla/shared/schemas/encryption-keys';
import { normaliseOrigin } from '@parla/shared/schemas/allowed-origins';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { checkEs256 } from '../encryption-keys/access-token';
import * as keys from '../encryption-keys/encryption-keys.repository';
import { assertOwnerActive, fixedTokenOpens } from './avatars.access';
import type { Catalogue } from './avatars.catalogue';
import * as repo from './avatars.repository';
import { ownAtlasUrls } from './own-model-atlas.service';

/** Where a full-body avatar stands in an own .glb environment (the catalogue's have their own). */
const OWN_ENVIRONMENT_STAGING: EnvironmentStaging = {
  spawn: { position: [0, 0, 0], rotationY: 0 },
  camera: { position: [0, 1.5, 3.2], target: [0, 1.1, 0], fov: 40 },
  lighting: {
    ambient: { color: '#ffffff', intensity: 0.5 },
    hemisphere: { sky: '#ffffff', ground: '#444444', intensity: 0.6 },
    directional: [{ color: '#ffffff', intensity: 1.2, position: [2, 4, 3] }],
    exposure: 1,
  },
  sky: '#20242c',
};

const DEFAULT_BACKGROUND_COLOR = '#0b1020';
const VIDEO_URL = /\.(mp4|webm|mov|m4v)(\?|#|$)/i;

function backgroundOf(json: AvatarJson, env: CatalogueEnvironmentsResponse): PublicBackground {
  if (/transparent:\s*true/i.test(json.Scene?.background ?? '')) return { kind: 'transparent' };
  const url = json.panel?.contentURL?.trim();
  if (json.panel?.Enable !== false && url) {
    const known = env.backgrounds.find((b) => b.url === url);
    const kind = known ? known.kind : VIDEO_URL.test(url) ? 'video' : 'image';
    return { kind, url };
  }
  return { kind: 'color', color: json.panel?.BgColor?.trim() || DEFAULT_BACKGROUND_COLOR };
}

function lightingOf(json: AvatarJson, env: CatalogueEnvironmentsResponse): LightingPreset | null {
  const first = json.Lights?.[0];
  const id = first && typeof first[LIGHT_PRESET_KEY] === 'string' ? (first[LIGHT_PRESET_KEY] as string) : null;
  if (!id) return null;
  return env.lights.find((l) => l.id === id)?.preset ?? null;
}

function environmentOf(json: AvatarJson, env: CatalogueEnvironmentsResponse): PublicAvatar['scene']['environment'] {
  const modelURL = json.Environment?.['gltf-model']?.trim();
  if (!modelURL) return null;
  const known = env.environments.find((e) => e.modelURL === modelURL);
  return { modelURL, staging: known?.staging ?? OWN_ENVIRONMENT_STAGING };
}

function languageOf(custom: CustomData): string {
  const languages = custom.agent_pipeline_config?.stt?.languages;
  const first = typeof languages === 'string' ? languages.split(',')[0]?.trim() : undefined;
  return first && isSpokenLanguage(first) ? first : DEFAULT_SPOKEN_LANGUAGE;
}

/**
 * Who may see an avatar's public view: anyone when its encryption option is None; with Default the
 * holder of its link token (avatars.access.ts: never with a created key); or of an access token signed by its key (the account's default key
 * for the Default option). A key token is checked but not used up here: its single use belongs to
 * the conversation it was made for (docs/decisions/201-avatar-media-and-public-view.md).
 */
async function mayView(ctx: AppContext, row: repo.PublicAvatarRow, token: string | undefined): Promise<boolean> {
  if (row.enc_key_id === ENCRYPTION_NONE) return true;
  if (!token || token.length > 4096) return false;
  if (fixedTokenOpens(row, token)) return true;
  if (token.split('.').length !== 3) return false;
  const key =
    row.enc_key_id === DEFAULT_ENC_KEY_ALIAS
      ? await keys.findDefault(ctx.db, row.owner_id)
      : await keys.find(ctx.db, row.owner_id, row.enc_key_id);
  if (!key) return false;
  const check = await checkEs256(token, key.public_key_pem, Math.floor(ctx.now().getTime() / 1000));
  return check.ok && check.claims.sub === row.id;
}

/** The catalogue appearance, or the customer's own 3D model (decision 123) with its photo as preview. */
async function appearanceOf(
  ctx: AppContext,
  catalogue: Catalogue,
  row: repo.PublicAvatarRow,
): Promise<Pick<CatalogueAvatar, 'id' | 'modelURL' | 'previewURL' | 'voiceGender' | 'atlasURL' | 'lightModelURL'> | null> {
  if (row.appearance_id !== OWN_MODEL_APPEARANCE) return (await catalogue.avatar(row.appearance_id)) ?? null;
  const model = row.own_model;
  if (!model) return null;
  const media = (fileId: string, ext: string) => `/config-files/avatars/${row.id}/media/${fileId}.${ext}`;
  const photo = row.avatar_photo_id ? (await repo.findMediaFile(ctx.db, row.id, row.avatar_photo_id))?.ext : undefined;
  // Its viseme atlas once the customer's browser has made it (decision 127): drawn without WebGL.
  const atlas = ownAtlasUrls(row.id, model.atlas);
  return {
    id: OWN_MODEL_APPEARANCE,
    modelURL: media(model.fileId, model.ext),
    previewURL: photo ? media(row.avatar_photo_id!, photo) : (atlas?.stillURL ?? ''),
    voiceGender: 'neutral',
    ...(atlas ? { atlasURL: atlas.manifestURL } : {}),
  };
}

export async function publicAvatarView(
  ctx: AppContext,
  catalogue: Catalogue,
  id: string,
  token: string | undefined,
): Promise<PublicAvatar> {
  const row = repo.isAvatarId(id) ? await repo.findPublic(ctx.db, id) : undefined;
  if (!row) throw AppError.notFound('Avatar');
  if (!(await mayView(ctx, row, token))) throw AppError.invalidToken();
  await assertOwnerActive(ctx, row.owner_id);

  const appearance = await appearanceOf(ctx, catalogue, row);
  if (!appearance) throw AppError.notFound('Avatar appearance');
  const env = await catalogue.environments();
  const json = avatarJsonSchema.safeParse(row.avatar_json);
  const avatarJson = json.success ? json.data : DEFAULT_AVATAR_JSON;
  const client = clientJsonSchema.safeParse(row.client_json);
  const clientJson = client.success ? client.data : DEFAULT_CLIENT_JSON;
  const custom = (row.custom_data ?? {}) as CustomData;
  const dhType = row.dh_type as DhType;
  const ttsProvider = custom.agent_pipeline_config?.tts?.provider;
  const wps = custom.words_per_sec;

  return {
    id: row.id,
    name: row.name,
    dhType,
    engine: engineName(row.nlp_engine),
    appearance: {
      id: appearance.id,
      modelURL: appearance.modelURL,
      previewURL: appearance.previewURL,
      ...(row.own_model && appearance.id === OWN_MODEL_APPEARANCE ? { rig: row.own_model.rig } : {}),
      ...(appearance.atlasURL ? { atlasURL: appearance.atlasURL } : {}),
      ...(appearance.lightModelURL ? { lightModelURL: appearance.lightModelURL } : {}),
    },
    scene: {
      background:
        dhType === '3d'
          ? { kind: 'color', color: avatarJson.panel?.BgColor?.trim() || DEFAULT_BACKGROUND_COLOR }
          : backgroundOf(avatarJson, env),
      lighting: dhType === '2d' ? lightingOf(avatarJson, env) : null,
      environment: dhType === '3d' ? environmentOf(avatarJson, env) : null,
    },
    avatarJson,
    clientJson,
    language: languageOf(custom),
    voice: {
      provider: ttsProvider === undefined || ttsProvider === null || ttsProvider === 'default' ? 'browser' : 'server',
      gender: appearance.voiceGender,
      wordsPerSecond: typeof wps === 'number' && wps > 0 && wps <= 10 ? wps : DEFAULT_WORDS_PER_SEC,
    },
    embedDefaults: embedParams.parse(readEmbedParams(clientJson as Record<string, unknown>)),
  };
}

/** The avatar's Allowed websites, normalised ([] = any site), or null when there is no such
 *  avatar (the player page's framing, decision 205). No owner: the page is public. */
export async function allowedOriginsOf(ctx: AppContext, avatarId: string): Promise<string[] | null> {
  const listed = await repo.findAllowedOrigins(ctx.db, avatarId);
  if (!listed) return null;
  return listed.map((o) => normaliseOrigin(String(o))).filter((o): o is string => o !== null);
}
