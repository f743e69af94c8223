// The avatar entity (spec 2 §3) and the payloads of its calls (spec 2 §7, design/api.md).
// Fields this area owns are validated strictly; the brain and advanced fields (spec 3) are typed
// but permissive here, and the Brain/Advanced forms tighten them in their own schemas.
import { z } from 'zod';
import type { OwnModelRig } from '../own-model';
import type { FailReason } from '../errors';
import { AVATAR_ENGINE_NAMES, AvatarEngine, DH_TYPES, SETUP_MODES, type DhType, type SetupMode } from '../enums';
import { DEFAULT_AGENT_LANGUAGE, DEFAULT_SPOKEN_LANGUAGE } from '../languages';
import { AVATAR_LIST_PAGE_MAX, AVATAR_MEDIA_PER_LIST, DEFAULT_WORDS_PER_SEC } from '../limits';
import { avatarJson, clientJson, type AvatarJson, type ClientJsonConfig } from './player';
import { idField } from './common';
import { avatarIdReference } from './avatar-id';
import { ADVANCED_MESSAGES } from './advanced';
import { agentPipelineConfig, type AgentPipelineConfig } from './brain';
import { allowedOrigins } from './allowed-origins';
import { AVATAR_TOP_K_MAX, SEARCH_SCORE_THRESHOLD_DEFAULT, SEARCH_TOP_K_DEFAULT } from './knowledge';

/** Validation and screen texts of spec 2 §5 and §8, written once. */
export const AVATAR_MESSAGES = {
  selectionRequired: 'Avatar selection is required. Please select an avatar from the list above.',
  selectFromGrid: 'Please select an avatar from the grid to create one.',
  nameRequired: 'Avatar Name is required.',
  nameTooLong: 'Avatar Name must be at most 100 characters.',
  engineRequired: 'Avatar Engine is required',
  typeRequired: 'Avatar Type is required',
  jsonInvalid: 'JSON is invalid',
  submitInvalid: 'Some fields are invalid. Please correct them before submitting.',
  startWithAppearance: 'Please select an avatar appearance from the grid to start creating your avatar.',
  tabInvalid: 'Some fields are invalid. Please correct them before changing tabs.',
  formInvalid: 'Form is Invalid',
  userDenied: 'User denied',
  activeUsersFailed: 'Failed to fetch the active user count.',
  fetchFailed: 'Failed to fetch agents.',
  deleteFailed: 'Error! Unable to delete avatar.',
  deleted: 'Deleted Successfully!',
  typeChangeWarning: 'Clicking Save will overwrite any previous configuration files.',
  creating: 'Creating...',
  updating: 'Updating...',
  copied: 'Copied to clipboard.',
  copyFailed: 'Failed to copy.',
  firstCreate: 'First Create Avatar',
  loading: 'Fetching Agents...',
  avatarConfigUrlInvalid: 'Avatar Config URL must be a valid URL',
  clientConfigUrlInvalid: 'Client Config URL must be a valid URL',
} as const;

/** What a new avatar says when a conversation starts, until its owner changes it. */
export const DEFAULT_WAKE_UP_MESSAGE = 'Hello! How can I help you today?';

/** Encryption options (spec 3 §3): the token in the URL (Default), none, or a created key's id. */
export const ENCRYPTION_DEFAULT = 'Default';
export const ENCRYPTION_NONE = 'None';

/** Permission bits of an avatar (spec 2 §3, spec 3 §6). */
export const AvatarPermission = { canSendChatHistory: 1, canHandleSttResponse: 2 } as const;

export function permissionBits(flags: { sendChatHistory: boolean; handleSttResponse: boolean }): number {
  return (
    (flags.sendChatHistory ? AvatarPermission.canSendChatHistory : 0) |
    (flags.handleSttResponse ? AvatarPermission.canHandleSttResponse : 0)
  );
}

export function hasPermission(bits: number, permission: number): boolean {
  return (bits & permission) === permission;
}

export const DH_TYPE_NAMES: Record<DhType, string> = {
  image: 'Image Avatar',
  '2d': 'Upper Body 3D',
  '3d': 'Full Body 3D',
  vba: 'Video Avatar',
};

export function engineName(engine: number): string {
  return (AVATAR_ENGINE_NAMES as Record<number, string>)[engine] ?? 'Unknown';
}

/**
 * Placeholders the editor puts where a file sent in the same request goes: the server replaces
 * them with the stored file's URL (avatarJson.panel.contentURL, avatarJson.Environment['gltf-model']).
 */
export const UPLOAD_REF = { backgroundImage: 'upload:backgroundImage', scene: 'upload:scene' } as const;
export const UPLOAD_FIELDS = ['backgroundImage', 'scene', 'avatarPhoto', 'avatarModel'] as const;
/** The appearance id of an avatar wearing the customer's own 3D model (the file in `avatarModel`). */
export const OWN_MODEL_APPEARANCE = 'own-model';
export type UploadField = (typeof UPLOAD_FIELDS)[number];

/** avatarJson.Lights entries name a catalogue lighting preset under this key: [{ preset: 'studio' }]. */
export const LIGHT_PRESET_KEY = 'preset';

/** Where the provider hosts an avatar's files ("the provider's config-files paths"). */
export const CONFIG_FILES_PATH = '/config-files/avatars/';

export function configFileUrl(origin: string, avatarId: string, file: 'avatar.json' | 'client.json'): string {
  return `${origin.replace(/\/$/, '')}${CONFIG_FILES_PATH}${avatarId}/${file}`;
}

/** A config URL is self-hosted unless it starts with one of the provider's config-files paths. */
export function isSelfHostedConfigUrl(url: string | null | undefined, providerOrigins: string[]): boolean {
  if (!url) return false;
  if (url.startsWith(CONFIG_FILES_PATH)) return false;
  return !providerOrigins.some((o) => url.startsWith(`${o.replace(/\/$/, '')}${CONFIG_FILES_PATH}`));
}

export function accessLink(
  origin: string,
  avatarId: string,
  token: string | null | undefined,
  params: Record<string, string> = {},
): string {
  const all: Record<string, string> = { ...(token ? { token } : {}), ...params };
  const q = Object.entries(all)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
  return `${origin.replace(/\/$/, '')}/avatar/${avatarId}${q ? `?${q}` : ''}`;
}

// ---- the pipeline config (spec 2 §3, spec 3 §3): the brain's schema (schemas/brain.ts) ----

/** "both converted to numbers": numbers, or numeric strings read as numbers. */
const numberish = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?$/, 'Must be a number')
    .transform(Number),
]);
/** Whole seconds (or counts) that fit the database's integer columns; -1 is "unlimited". */
const seconds = (max: number) =>
  numberish.pipe(z.number().int('Must be a whole number').min(-1, 'Must be -1 (unlimited) or more').max(max, `Must be at most ${max}`));
const text = (max = 2000) => z.string().max(max);

/** A number of seconds as typed: a number, a numeric string, '' or null (= not given). */
const limitInput = z
  .union([z.number(), z.string().max(40), z.null()], { error: 'Must be a number' })
  .transform((v) => (typeof v === 'string' ? (v.trim() === '' ? null : Number(v.trim())) : v));

export const pipelineConfig = agentPipelineConfig;
export type PipelineConfig = AgentPipelineConfig;

export const customData = z
  .object({
    transcriptionStreaming: z.boolean({ error: ADVANCED_MESSAGES.required }),
    enable_transcript_download: z.boolean({ error: ADVANCED_MESSAGES.required }),
    words_per_sec: z
      .number({ error: ADVANCED_MESSAGES.wordsPerSecond })
      .positive(ADVANCED_MESSAGES.wordsPerSecond)
      .max(10, ADVANCED_MESSAGES.wordsPerSecond),
    summaryEnabled: z.boolean(),
    collection_ids: z.array(idField).max(100),
    /** Brain → KNOWLEDGE BASE: passages per answer (1–10) and the relevance threshold (0–1). */
    knowledge_top_k: z
      .number({ error: `Top K must be a whole number from 1 to ${AVATAR_TOP_K_MAX}.` })
      .int(`Top K must be a whole number from 1 to ${AVATAR_TOP_K_MAX}.`)
      .min(1, `Top K must be a whole number from 1 to ${AVATAR_TOP_K_MAX}.`)
      .max(AVATAR_TOP_K_MAX, `Top K must be a whole number from 1 to ${AVATAR_TOP_K_MAX}.`),
    knowledge_threshold: z
      .number({ error: 'Score threshold must be between 0 and 1.' })
      .min(0, 'Score threshold must be between 0 and 1.')
      .max(1, 'Score threshold must be between 0 and 1.'),
    agent_pipeline_config: pipelineConfig,
  })
  .partial()
  .loose();
export type CustomData = z.infer<typeof customData>;

/** An avatar's retrieval settings, defaults filled in (also for avatars saved before them). */
export function knowledgeSettings(custom: Partial<CustomData> | null | undefined): { topK: number; threshold: number } {
  const k = custom?.knowledge_top_k;
  const t = custom?.knowledge_threshold;
  return {
    topK: typeof k === 'number' && Number.isInteger(k) && k >= 1 && k <= AVATAR_TOP_K_MAX ? k : SEARCH_TOP_K_DEFAULT,
    threshold: typeof t === 'number' && t >= 0 && t <= 1 ? t : SEARCH_SCORE_THRESHOLD_DEFAULT,
  };
}

export const DEFAULT_PIPELINE_CONFIG: PipelineConfig = {
  stt: { provider: 'default', default_stt: 0, languages: DEFAULT_SPOKEN_LANGUAGE },
  tts: { provider: 'default', default_tts: 1 },
  llm: { provider: 'echo', agent_language: DEFAULT_AGENT_LANGUAGE },
  interrupt_handling: { allow_interruptions: true, min_interruption_duration: 0.5, min_interruption_words: 0 },
  vad_options: {
    min_endpointing_delay: 0.5,
    max_endpointing_delay: 3,
    min_speech_duration: 0.05,
    min_silence_duration: 0.55,
    prefix_padding_duration: 0.5,
    max_buffered_speech: 60,
    activation_threshold: 0.5,
  },
};

/** customData of a new avatar (spec 2 §3 defaults). */
export function defaultCustomData(): CustomData {
  return {
    transcriptionStreaming: false,
    enable_transcript_download: false,
    words_per_sec: DEFAULT_WORDS_PER_SEC,
    summaryEnabled: true,
    collection_ids: [],
    agent_pipeline_config: JSON.parse(JSON.stringify(DEFAULT_PIPELINE_CONFIG)) as PipelineConfig,
  };
}

// ---- the save payload: field `json` of POST /api/avatar_v2/add ----

const engineValues = Object.values(AvatarEngine) as number[];
const nlpEngineField = z
  .number({ error: AVATAR_MESSAGES.engineRequired })
  .int()
  .refine((v) => engineValues.includes(v), AVATAR_MESSAGES.engineRequired);

/** An absolute http(s) URL with a host and no spaces (shared has no URL parser: no DOM, no Node). */
const HTTP_URL = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?(\/[^\s]*)?$/;

const httpUrl = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .max(2000, message)
    .refine((v) => v.startsWith(CONFIG_FILES_PATH) || HTTP_URL.test(v), message);

const mediaRef = z.object({ id: idField }).loose();

export const saveAvatarRequest = z.object({
  /** Present: update that avatar; absent: create one. */
  id: avatarIdReference.optional(),
  /** The `updated` the editor loaded; an older one than the stored row is a stale request. */
  updated: z.string().max(64).optional(),
  name: z.string({ error: AVATAR_MESSAGES.nameRequired }).trim().min(1, AVATAR_MESSAGES.nameRequired).max(100, AVATAR_MESSAGES.nameTooLong),
  dhType: z.enum(DH_TYPES, { error: AVATAR_MESSAGES.typeRequired }),
  /** The catalogue appearance the avatar wears. */
  appearanceId: z
    .string({ error: AVATAR_MESSAGES.selectionRequired })
    .trim()
    .min(1, AVATAR_MESSAGES.selectionRequired)
    .max(100, AVATAR_MESSAGES.selectionRequired),
  avatarJson: avatarJson.optional(),
  clientJson: clientJson.optional(),
  /** null or absent: hosted by the provider. */
  avatarConfigURL: httpUrl(AVATAR_MESSAGES.avatarConfigUrlInvalid).nullable().optional(),
  clientConfigURL: httpUrl(AVATAR_MESSAGES.clientConfigUrlInvalid).nullable().optional(),
  /** The own media to keep; stored items missing here are deleted with their files. */
  mediaDetails: z
    .object({
      backgroundImage: z.array(mediaRef).max(AVATAR_MEDIA_PER_LIST).default([]),
      scene: z.array(mediaRef).max(AVATAR_MEDIA_PER_LIST).default([]),
    })
    .optional(),
  removeAvatarPhoto: z.boolean().optional(),
  encKeyId: z.string().trim().min(1).max(100).optional(),

  // Brain and advanced settings (spec 3): typed and bounded, tightened by their forms.
  nlpEngine: nlpEngineField.optional(),
  setupMode: z.enum(SETUP_MODES).optional(),
  realtime: z.boolean({ error: ADVANCED_MESSAGES.required }).optional(),
  callBackURL: text().nullable().optional(),
  projectId: text(200).nullable().optional(),
  agentId: text(200).nullable().optional(),
  regionId: text(200).nullable().optional(),
  jsonKey: text(100_000).nullable().optional(),
  jsonKeyBase64: text(150_000).nullable().optional(),
  restApiKey: text(2000).nullable().optional(),
  restEndPointURL: text().nullable().optional(),
  poolName: text(200).nullable().optional(),
  wakeUpMessage: text(2000).nullable().optional(),
  agentLanguage: text(20).nullable().optional(),
  operatorAssistanceNeeded: z.boolean().optional(),
  oauthEnabled: z.union([z.literal(0), z.literal(1)], { error: ADVANCED_MESSAGES.oauthEnabledRequired }).optional(),
  partnerOauthAppId: z
    .union([text(100), z.number().transform(String)], { error: ADVANCED_MESSAGES.oauthIdNumber })
    .nullable()
    .optional(),
  billingAuthURL: text().nullable().optional(),
  billingAuthPingTime: seconds(86_400).optional(),
  billingAuthHeader: text(4000).nullable().optional(),
  // Limits and idle timeout: read as typed here; their rules and messages (spec 3 §5) are
  // applied on save to the values the avatar ends up with (modules/brain/avatar-brain.ts).
  dailyLimitPerSession: limitInput.optional(),
  dailyLimitPerIP: limitInput.optional(),
  dailyLimits: z
    .record(z.string().max(40), limitInput)
    .refine((r) => Object.keys(r).length <= 10, 'Too many daily limits')
    .optional(),
  idleTimeout: limitInput.optional(),
  sendChatHistory: z.boolean({ error: ADVANCED_MESSAGES.required }).optional(),
  handleSttResponse: z.boolean({ error: ADVANCED_MESSAGES.required }).optional(),
  functions: z.array(idField).max(100).optional(),
  customData: customData.optional(),
  /** Allowed websites (EMBED): origins whose pages may open conversations; empty = any site. */
  allowedOrigins: allowedOrigins.optional(),
});
export type SaveAvatarRequest = z.infer<typeof saveAvatarRequest>;
export type SaveAvatarInput = z.input<typeof saveAvatarRequest>;

export const deleteAvatarRequest = z.object({ agentId: avatarIdReference, mode: z.literal('delete', { error: "mode must be 'delete'" }) });
export type DeleteAvatarRequest = z.infer<typeof deleteAvatarRequest>;

/** `GET /api/avatar/list`: one page of cards, newest first; `search` keeps the avatars whose id
 *  contains it (any case), over every avatar of the account (decision 211). */
export const listAvatarsQuery = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(AVATAR_LIST_PAGE_MAX, `limit must be at most ${AVATAR_LIST_PAGE_MAX}`)
    .optional(),
  offset: z.coerce
    .number({ error: 'offset must be a number' })
    .int('offset must be a whole number')
    .min(0, 'offset must be at least 0')
    .max(1_000_000, 'offset is too large')
    .optional(),
  search: z.string().trim().max(100, 'Search must be at most 100 characters').optional(),
});
export type ListAvatarsQuery = z.infer<typeof listAvatarsQuery>;

export const listAvatarUsersRequest = z.object({ agentId: avatarIdReference, mode: z.literal('get', { error: "mode must be 'get'" }) });
export type ListAvatarUsersRequest = z.infer<typeof listAvatarUsersRequest>;

// ---- answers ----

export interface AvatarMediaItem {
  id: string;
  url: string;
  kind: 'image' | 'video' | 'glb';
}

export interface AvatarMediaDetails {
  backgroundImage: AvatarMediaItem[];
  scene: AvatarMediaItem[];
}

/** What the editor shows of the avatar's own 3D model (decision 123). */
export interface OwnModelInfo {
  url: string;
  format: OwnModelRig['format'];
  convention: OwnModelRig['convention'];
  headBone: string;
  missing: string[];
  /** One sentence: the mouth shapes, head bone and blink found. */
  description: string;
}

/** The reason a conversation could not start, in the owner's words, and when (ISO time). */
export interface StartFailure {
  message: string;
  at: string;
}

export interface Avatar {
  id: string;
  name: string;
  nlpEngine: number;
  nlpEngineName: string;
  dhType: DhType;
  dhTypeName: string;
  appearanceId: string;
  usersCount: number;
  callBackURL: string | null;
  created: string;
  updated: string;
  projectId: string | null;
  agentId: string | null;
  regionId: string | null;
  /** Masked. */
  jsonKey: string;
  jsonKeyBase64: string;
  avatarPhoto: string | null;
  avatarPhotoBase64: null;
  avatarPhotoURL: string | null;
  /** An uploaded 3D model's still (its viseme atlas's resting picture, decision 127): the card's
   *  face when there is no photo; null before the browser has made the atlas. */
  stillURL: string | null;
  oauthEnabled: 0 | 1;
  partnerOauthAppId: string | null;
  billingAuthURL: string | null;
  billingAuthPingTime: number;
  billingAuthHeader: string | null;
  /** Masked. */
  restApiKey: string;
  restEndPointURL: string | null;
  poolName: string | null;
  wakeUpMessage: string | null;
  agentLanguage: string;
  operatorAssistanceNeeded: boolean;
  /** The access token of the access link (/avatar/{id}?token=...). */
  token: string;
  encKeyId: string;
  dailyLimitPerSession: number;
  dailyLimitPerIP: number;
  dailyLimits: Record<string, number>;
  idleTimeout: number;
  sendChatHistory: boolean;
  handleSttResponse: boolean;
  permissions: number;
  avatarConfigURL: string;
  clientConfigURL: string;
  /** Whether the config files live elsewhere than this server's config-files paths (decided on
   *  the server from PUBLIC_URL, not from the host the portal is opened on). */
  selfHosted: { avatarConfig: boolean; clientConfig: boolean };
  /** This server's own origin for config files (PUBLIC_URL): edited URLs are checked against it. */
  configFilesOrigin: string;
  avatarJson: AvatarJson;
  clientJson: ClientJsonConfig;
  mediaDetails: AvatarMediaDetails;
  /** The customer's own 3D model when the appearance is OWN_MODEL_APPEARANCE, else null. */
  ownModel: OwnModelInfo | null;
  /** Why the avatar's last conversation could not start, for its owner; absent once one starts. */
  startFailure?: StartFailure | null;
  functions: string[];
  setupMode: SetupMode;
  realtime: boolean;
  customData: CustomData;
  /** Allowed websites: normalised origins; empty = any site (the portal's own pages always). */
  allowedOrigins: string[];
}

export interface SaveAvatarResponse {
  status: 'OK';
  agent: Avatar;
  failReason: string | null;
}

/** What an avatar's card in the list shows (spec 2 §2), and what Connect needs; the editor
 *  loads the whole avatar with `GET /api/avatar/{id}` when a card is selected. */
export type AvatarCardItem = Pick<
  Avatar,
  | 'id'
  | 'name'
  | 'nlpEngine'
  | 'nlpEngineName'
  | 'dhType'
  | 'dhTypeName'
  | 'appearanceId'
  | 'usersCount'
  | 'created'
  | 'updated'
  | 'avatarPhotoURL'
  | 'stillURL'
  | 'token'
  | 'encKeyId'
  | 'startFailure'
>;

/** The card fields of a whole avatar (a save's answer put into the list). */
export function cardOf(a: AvatarCardItem): AvatarCardItem {
  const {
    id,
    name,
    nlpEngine,
    nlpEngineName,
    dhType,
    dhTypeName,
    appearanceId,
    usersCount,
    created,
    updated,
    avatarPhotoURL,
    stillURL,
    token,
    encKeyId,
    startFailure,
  } = a;
  return {
    id,
    name,
    nlpEngine,
    nlpEngineName,
    dhType,
    dhTypeName,
    appearanceId,
    usersCount,
    created,
    updated,
    avatarPhotoURL,
    stillURL: stillURL ?? null,
    token,
    encKeyId,
    ...(startFailure ? { startFailure } : {}),
  };
}

export interface AvatarListResponse {
  agents: AvatarCardItem[];
  /** The offset of the next page, or null when this page ends the list. */
  nextOffset: number | null;
}

export interface GetAvatarResponse {
  status: 'OK';
  agent: Avatar;
}

export interface DeleteAvatarResponse {
  status: 'OK';
  agentId: string;
}

/** An end user talking to an avatar right now (spec 2 §3). */
export interface AvatarOnlineUser {
  sessionId: string;
  userName: string;
  deviceOS: string | null;
  onlineStatus: string;
  locale: string | null;
  lastConnectTimeStamp: string;
  ipAddress: string | null;
  spokenLanguage: string | null;
}

export interface ListAvatarUsersResponse {
  status: 'OK';
  agentId: string;
  onlineUsers: AvatarOnlineUser[];
  errors: string[];
}

/** failReason values of the avatar calls; the editor maps each to its message. */
export const AVATAR_FAIL_REASONS = {
  stale: 'STALE_REQUEST',
  limit: 'AVATAR_LIMIT_REACHED',
  tooLarge: 'FILE_TOO_LARGE',
  fileType: 'INVALID_FILE_TYPE',
  notFound: 'NOT_FOUND',
  appearance: 'INVALID_APPEARANCE',
  upload: 'INVALID_UPLOAD',
  mediaLimit: 'MEDIA_LIMIT_REACHED',
} as const satisfies Record<string, FailReason>;
