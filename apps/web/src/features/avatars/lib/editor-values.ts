// The editor's form: one react-hook-form over the whole avatar, so every tab reads and writes the
// same draft and Save sends all of it. Validation derives from the server's saveAvatarRequest.
import type { DhType } from '@parla/shared/enums';
import { DEFAULT_AVATAR_JSON, DEFAULT_CLIENT_JSON, type AvatarJson, type ClientJsonConfig } from '@parla/shared/schemas/player';
import { saveAvatarRequest, type Avatar, type AvatarMediaDetails, type SaveAvatarInput } from '@parla/shared/schemas/avatar';

export interface EditorValues extends Partial<
  Omit<Avatar, 'dhType' | 'name' | 'appearanceId' | 'avatarJson' | 'clientJson' | 'mediaDetails'>
> {
  name: string;
  dhType: DhType | '';
  appearanceId: string;
  avatarJson: AvatarJson;
  clientJson: ClientJsonConfig;
  mediaDetails: AvatarMediaDetails;
  removeAvatarPhoto: boolean;
}

/** The fields this area owns, checked with the server's own rules and messages. */
export const editorSchema = saveAvatarRequest
  .pick({ name: true, dhType: true, appearanceId: true, avatarJson: true, clientJson: true, avatarConfigURL: true, clientConfigURL: true })
  .loose();

export const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

export function emptyValues(): EditorValues {
  return {
    name: '',
    dhType: '',
    appearanceId: '',
    avatarJson: clone(DEFAULT_AVATAR_JSON),
    clientJson: clone(DEFAULT_CLIENT_JSON),
    mediaDetails: { backgroundImage: [], scene: [] },
    removeAvatarPhoto: false,
  };
}

export function valuesFromAvatar(a: Avatar): EditorValues {
  return { ...clone(a), removeAvatarPhoto: false };
}

/** Brain and advanced settings: sent back as loaded (masked secrets mean "unchanged"). */
const PASS_THROUGH = [
  'nlpEngine',
  'setupMode',
  'realtime',
  'callBackURL',
  'projectId',
  'agentId',
  'regionId',
  'jsonKey',
  'restApiKey',
  'restEndPointURL',
  'poolName',
  'wakeUpMessage',
  'agentLanguage',
  'operatorAssistanceNeeded',
  'oauthEnabled',
  'partnerOauthAppId',
  'billingAuthURL',
  'billingAuthPingTime',
  'billingAuthHeader',
  'dailyLimitPerSession',
  'dailyLimitPerIP',
  'dailyLimits',
  'idleTimeout',
  'sendChatHistory',
  'handleSttResponse',
  'functions',
  'customData',
  'encKeyId',
  'allowedOrigins',
] as const;

export function payloadFrom(v: EditorValues): SaveAvatarInput {
  const core: SaveAvatarInput = {
    name: v.name,
    dhType: v.dhType as DhType,
    appearanceId: v.appearanceId,
    avatarJson: v.avatarJson,
    clientJson: v.clientJson,
  };
  if (!v.id) return core;
  const rest = Object.fromEntries(PASS_THROUGH.filter((k) => v[k] !== undefined && v[k] !== null).map((k) => [k, v[k]]));
  return {
    ...rest,
    ...core,
    id: v.id,
    updated: v.updated,
    avatarConfigURL: v.avatarConfigURL ?? null,
    clientConfigURL: v.clientConfigURL ?? null,
    mediaDetails: {
      backgroundImage: v.mediaDetails.backgroundImage.map((m) => ({ id: m.id })),
      scene: v.mediaDetails.scene.map((m) => ({ id: m.id })),
    },
    removeAvatarPhoto: v.removeAvatarPhoto || undefined,
  } as SaveAvatarInput;
}
