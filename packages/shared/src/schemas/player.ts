// What the player reads: the public view of an avatar (GET /api/public/avatar/{id}?token=...)
// and its configuration files (avatar JSON and client JSON, spec 2 §3). Only what a browser on
// a customer's site needs: never keys, tokens of providers, endpoints or owner data.
//
// The player itself imports only types from here (zod stays out of its bundle); its runtime
// helpers are in ../embed-params.ts and ../visemes.ts.
import { z } from 'zod';
import type { OwnModelRig } from '../own-model';
import { COLOR_MESSAGE, isCssColor } from '../media-checks';
import { DH_TYPES } from '../enums';
import { CONTROL_BUTTON_POSITIONS, DEFAULT_CLIENT_JSON, EMBED_FLAGS, PLAYER_EVENTS, type EmbedFlag } from '../embed-params';
import { lightingPreset, environmentStaging, VOICE_GENDERS } from './catalogue';

/** A-Frame style `"x y z"` strings, as in the spec's config files, or number triples. */
const vec3Like = z.union([z.string().max(100), z.tuple([z.number(), z.number(), z.number()])]);

const placedModel = z
  .object({
    'gltf-model': z.string().max(2000).optional(),
    position: vec3Like.optional(),
    rotation: vec3Like.optional(),
    scale: vec3Like.optional(),
    shadow: z.union([z.string().max(200), z.boolean()]).optional(),
  })
  .loose();

/** Avatar (environment) JSON, spec 2 §3. Unknown keys are kept: customers' files may carry more. */
export const avatarJson = z
  .object({
    ParentConfig: z.string().max(2000).optional(),
    Subtitle: z.object({ Enabled: z.boolean() }).loose().optional(),
    panel: z
      .object({
        Enable: z.boolean().optional(),
        BgColor: z
          .string()
          .max(100)
          .refine((c) => c === '' || isCssColor(c), COLOR_MESSAGE)
          .optional(),
        contentURL: z.string().max(2000).optional(),
      })
      .loose()
      .optional(),
    Scene: z
      .object({ background: z.string().max(200).optional() })
      .loose()
      .optional(),
    Environment: placedModel.optional(),
    NavigationMesh: placedModel.optional(),
    Lights: z.array(z.record(z.string(), z.unknown())).max(8).optional(),
  })
  .loose();
export type AvatarJson = z.infer<typeof avatarJson>;

export const DEFAULT_AVATAR_JSON: AvatarJson = {
  Subtitle: { Enabled: true },
  panel: { Enable: true, BgColor: '#0b1020' },
  Scene: { background: 'transparent: false' },
};

const flagShape = Object.fromEntries(EMBED_FLAGS.map((f) => [f, z.boolean().optional()])) as Record<EmbedFlag, z.ZodOptional<z.ZodBoolean>>;

/** The embed parameters as stored defaults (the URL's strings are read by readEmbedParams). */
export const embedParams = z.object({
  ...flagShape,
  dialPageBackground: z.string().max(2000).optional(),
  screenAspectRatio: z
    .string()
    .regex(/^\d{1,3}(\.\d{1,3})?:\d{1,3}(\.\d{1,3})?$/, 'Screen aspect ratio must look like 16:9')
    .optional(),
  controlButtonPosition: z.enum(CONTROL_BUTTON_POSITIONS).optional(),
});

/** Client JSON, spec 2 §3: the player's UI configuration; URL parameters override its embed keys. */
export const clientJson = embedParams
  .extend({
    letsChatButtonText: z.string().max(40).optional(),
    dialPageTitle: z.string().max(200).optional(),
    chatInputPlaceholder: z.string().max(100).optional(),
    forwardEvents: z.array(z.enum(PLAYER_EVENTS)).optional(),
  })
  .loose();
export type ClientJsonConfig = z.infer<typeof clientJson>;
export { DEFAULT_CLIENT_JSON };

export const publicBackground = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('image'), url: z.string() }),
  z.object({ kind: z.literal('video'), url: z.string() }),
  z.object({ kind: z.literal('color'), color: z.string().max(100) }),
  z.object({ kind: z.literal('transparent') }),
]);
export type PublicBackground = z.infer<typeof publicBackground>;

export const publicAvatar = z.object({
  id: z.string(),
  name: z.string(),
  dhType: z.enum(DH_TYPES),
  /** The brain's display name (AVATAR_ENGINE_NAMES), e.g. 'Echo'. */
  engine: z.string(),
  appearance: z.object({
    /** The catalogue id the avatar was created from. */
    id: z.string(),
    /** Image avatar manifest or GLB. */
    modelURL: z.string(),
    previewURL: z.string(),
    /** The customer's own 3D model: its mouth shapes, blink and bones (decision 123). */
    rig: z.custom<OwnModelRig>((v) => typeof v === 'object' && v !== null).optional(),
    /** 3D avatars: the viseme atlas (an image avatar manifest) for browsers without WebGL. */
    atlasURL: z.string().optional(),
    /** Catalogue 3D avatars: the GLB with a lighter face, for software WebGL (decision 128). */
    lightModelURL: z.string().optional(),
  }),
  scene: z.object({
    /** Upper body and image avatars: what is behind the avatar. */
    background: publicBackground,
    /** Upper body only (spec 2: lighting is for upper body). */
    lighting: lightingPreset.nullable(),
    /** Full body only: the 3D environment and its staging. */
    environment: z.object({ modelURL: z.string(), staging: environmentStaging }).nullable(),
  }),
  avatarJson: avatarJson,
  clientJson: clientJson,
  /** Spoken language, e.g. en-US: picks the browser voice and the letter-to-sound rules. */
  language: z.string(),
  voice: z.object({
    /** 'browser': the browser's speech synthesis; 'server': the runtime streams audio. */
    provider: z.enum(['browser', 'server']),
    /** A browser voice name to prefer, when the avatar names one. */
    name: z.string().optional(),
    gender: z.enum(VOICE_GENDERS),
    /** Speaking rate for the viseme timeline (words per second, customData.words_per_sec). */
    wordsPerSecond: z.number().positive().max(10),
  }),
  /** Embed defaults saved with the avatar; client JSON and then URL parameters override them. */
  embedDefaults: embedParams,
});
export type PublicAvatar = z.infer<typeof publicAvatar>;
