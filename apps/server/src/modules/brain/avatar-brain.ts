// The brain and ADVANCED rules on the avatar save (spec 3 §5, checked again on the server with
// the forms' own rules and messages), and the pipeline's secrets on the way in and out.
import { AvatarEngine, type SetupMode } from '@parla/shared/enums';
import { enginesForMode } from '@parla/shared/providers';
import {
  ADVANCED_MESSAGES,
  advancedFromAvatar,
  readInterruptHandling,
  readVadOptions,
  validateAdvanced,
  type AvatarAdvancedFields,
} from '@parla/shared/schemas/advanced';
import { AvatarPermission, DEFAULT_WAKE_UP_MESSAGE, hasPermission, type SaveAvatarRequest } from '@parla/shared/schemas/avatar';
import { BRAIN_MESSAGES, type AgentPipelineConfig } from '@parla/shared/schemas/brain';
import { isCustomLlm, SECRET_MASK_PREFIX, usesLlmForm, validateBrain } from '@parla/shared/schemas/brain-forms';
import { pipelineToForms, type AvatarEngineFields } from '@parla/shared/schemas/brain-pipeline';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { isMasked, type SecretBox } from '../../lib/secrets';
import * as avatarsRepo from '../avatars/avatars.repository';
import { brainCatalogue } from './brain.catalogue';
import { checkedCustomBaseUrl } from './custom-llm';
import { encryptSecrets, maskSecrets, type SecretContext } from './brain-secrets';
import { obj, type PipelineLoader } from './stored-keys';

type Row = avatarsRepo.AvatarRow;
type Actor = { adminProxy: boolean };

const unique = (list: string[]) => [...new Set(list)];

/** The effective mode and engine of a save (new avatars start in echo-back mode). */
function brainOf(p: SaveAvatarRequest, stored: Row | null): { mode: SetupMode; engine: number } {
  return {
    mode: (p.setupMode ?? stored?.setup_mode ?? 'Simple') as SetupMode,
    engine: stored ? (p.nlpEngine ?? stored.nlp_engine) : AvatarEngine.EchoTest,
  };
}

/** A secret column as the forms see it: the value sent, masked when one is stored, or none. A
 *  masked value with nothing stored counts as none. */
function secretField(sent: string | null | undefined, stored: string | null | undefined): string | null {
  if (sent === undefined || isMasked(sent)) return stored ? SECRET_MASK_PREFIX : null;
  return sent;
}

/** The REST and Dialogflow fields the save leaves the avatar with. */
function engineFields(p: SaveAvatarRequest, stored: Row | null): AvatarEngineFields {
  const keep = <T>(sent: T | undefined, before: T | null | undefined) => (sent !== undefined ? sent : (before ?? null));
  return {
    restEndPointURL: keep(p.restEndPointURL, stored?.rest_endpoint_url),
    restApiKey: secretField(p.restApiKey, stored?.rest_api_key_enc),
    projectId: keep(p.projectId, stored?.project_id),
    agentId: keep(p.agentId, stored?.agent_id),
    regionId: keep(p.regionId, stored?.region_id),
    jsonKey: secretField(
      p.jsonKey ??
        (p.jsonKeyBase64 && !isMasked(p.jsonKeyBase64) ? Buffer.from(p.jsonKeyBase64, 'base64').toString('utf8') : p.jsonKeyBase64),
      stored?.json_key_enc,
    ),
    agentLanguage: keep(p.agentLanguage, stored?.agent_language),
  };
}

/** Spec 3 §5 "Brain foundation steps": engine, STT and TTS of the pipeline about to be saved. */
export function checkBrain(ctx: AppContext, p: SaveAvatarRequest, stored: Row | null): void {
  const incoming = p.customData?.agent_pipeline_config;
  const touched = [
    p.nlpEngine,
    p.setupMode,
    incoming,
    p.restEndPointURL,
    p.restApiKey,
    p.projectId,
    p.agentId,
    p.regionId,
    p.jsonKey,
    p.jsonKeyBase64,
  ];
  if (touched.every((v) => v === undefined)) return;
  const { mode, engine } = brainOf(p, stored);
  const changed = !stored || engine !== stored.nlp_engine || mode !== stored.setup_mode;
  if (changed && !enginesForMode(mode).includes(engine as AvatarEngine))
    throw AppError.invalid(BRAIN_MESSAGES.engineRequired, 'INVALID_BRAIN');
  const pipeline = incoming ?? obj(obj(stored?.custom_data).agent_pipeline_config);
  const catalogue = brainCatalogue(ctx.config);
  const forms = pipelineToForms(
    pipeline,
    { setupMode: mode, nlpEngine: engine, realtime: stored?.realtime ?? false, ...engineFields(p, stored) },
    catalogue,
  );
  const issues = validateBrain(forms, catalogue);
  if (issues.length) throw AppError.invalid(unique(issues.map((i) => i.message)), 'INVALID_BRAIN');
  // A custom base URL of the right shape must also be one the server may call.
  if (usesLlmForm(engine) && mode !== 'Simple' && isCustomLlm(forms.llmDetails)) checkedCustomBaseUrl(ctx, forms.llmDetails.url);
}

function storedAdvanced(stored: Row | null): AvatarAdvancedFields {
  // A new avatar gets the defaults of the avatars module for what the payload leaves out.
  if (!stored) return { wakeUpMessage: DEFAULT_WAKE_UP_MESSAGE };
  const custom = obj(stored.custom_data);
  return {
    encKeyId: stored.enc_key_id,
    wakeUpMessage: stored.wake_up_message,
    sendChatHistory: hasPermission(stored.permissions, AvatarPermission.canSendChatHistory),
    handleSttResponse: hasPermission(stored.permissions, AvatarPermission.canHandleSttResponse),
    realtime: stored.realtime,
    dailyLimitPerSession: stored.daily_limit_per_session,
    dailyLimitPerIP: stored.daily_limit_per_ip,
    dailyLimits: (stored.daily_limits ?? {}) as Record<string, number>,
    idleTimeout: stored.idle_timeout,
    oauthEnabled: stored.oauth_enabled ? 1 : 0,
    partnerOauthAppId: stored.partner_oauth_app_id,
    billingAuthURL: stored.billing_auth_url,
    billingAuthHeader: stored.billing_auth_header_enc ? SECRET_MASK_PREFIX : null,
    customData: custom as AvatarAdvancedFields['customData'],
  };
}

const defined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/** Spec 3 §5 "Advanced form": the settings the save leaves the avatar with. Fields only the
 *  admin-proxy desk may change keep their stored values for everyone else. */
export function checkAdvanced(p: SaveAvatarRequest, stored: Row | null, actor: Actor): void {
  const before = storedAdvanced(stored);
  const admin = actor.adminProxy;
  const incomingCustom = p.customData ?? {};
  const pipeline = { ...obj(before.customData?.agent_pipeline_config), ...obj(incomingCustom.agent_pipeline_config) };
  const merged: AvatarAdvancedFields = {
    ...before,
    ...defined({
      encKeyId: p.encKeyId,
      wakeUpMessage: p.wakeUpMessage,
      dailyLimitPerSession: p.dailyLimitPerSession,
      dailyLimitPerIP: p.dailyLimitPerIP,
      dailyLimits: p.dailyLimits,
      oauthEnabled: p.oauthEnabled,
      partnerOauthAppId: p.partnerOauthAppId,
      billingAuthURL: p.billingAuthURL,
      billingAuthHeader: p.billingAuthHeader,
      ...(admin
        ? { sendChatHistory: p.sendChatHistory, handleSttResponse: p.handleSttResponse, realtime: p.realtime, idleTimeout: p.idleTimeout }
        : {}),
    }),
    customData: {
      ...obj(before.customData),
      ...defined({
        transcriptionStreaming: incomingCustom.transcriptionStreaming,
        enable_transcript_download: incomingCustom.enable_transcript_download,
      }),
      ...(admin && incomingCustom.words_per_sec !== undefined ? { words_per_sec: incomingCustom.words_per_sec } : {}),
      agent_pipeline_config: pipeline,
    },
  };
  const { mode } = brainOf(p, stored);
  const ctx = { speechToSpeech: mode === 'SpeechToSpeech' };
  const form = advancedFromAvatar(merged, ctx);
  const issues = validateAdvanced({ ...form, wakeUpMessage: merged.wakeUpMessage ?? '' }, ctx, true);
  if (issues.length) throw AppError.invalid([ADVANCED_MESSAGES.invalidForm, ...unique(issues.map((i) => i.message))], 'INVALID_ADVANCED');
}

/**
 * The pipeline to store: secrets encrypted (a masked one keeps the stored key of the same
 * provider), the older interruption names renamed, the VAD options of the mode.
 */
export function sealPipeline(
  box: SecretBox,
  incoming: AgentPipelineConfig,
  previous: unknown,
  mode: SetupMode,
  engines: SecretContext = {},
): AgentPipelineConfig {
  const { config, unresolved } = encryptSecrets(box, incoming, previous, engines);
  if (unresolved.length) throw AppError.invalid(BRAIN_MESSAGES.storedKeyMissing, 'STORED_KEY_MISSING');
  const ctx = { speechToSpeech: mode === 'SpeechToSpeech' };
  return {
    ...config,
    ...(config.interrupt_handling ? { interrupt_handling: readInterruptHandling(config.interrupt_handling) } : {}),
    ...(config.vad_options ? { vad_options: readVadOptions(config.vad_options, ctx) } : {}),
  };
}

/** The pipeline as answered: every secret masked. */
export function maskPipeline(box: SecretBox, stored: unknown): AgentPipelineConfig {
  return maskSecrets(box, (stored ?? {}) as AgentPipelineConfig);
}

/** Stored keys for look-ups: the saved pipeline of one of the owner's avatars. */
export function avatarPipelineLoader(ctx: AppContext): PipelineLoader {
  return async (ownerId, avatarId) => {
    if (!avatarsRepo.isAvatarId(avatarId)) return undefined;
    const row = await avatarsRepo.find(ctx.db, ownerId, avatarId);
    return row ? { pipeline: obj(row.custom_data).agent_pipeline_config ?? {}, engine: row.nlp_engine } : undefined;
  };
}
