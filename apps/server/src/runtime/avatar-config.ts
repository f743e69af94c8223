// From a saved avatar to what the runtime runs: the access check (spec 3: Default = the
// avatar's token in the link, None = anyone, a created key = an ES256 JWT signed with it), the
// engine configuration of its brain (stored keys decrypted in memory only, provider hosts
// redirected by PROVIDER_URL_OVERRIDES), its limits, linked knowledge collections and approved
// functions. The one module that knows both the avatar row and the engines' configurations.

/** Realtime providers' defaults when the avatar names none (spec 3 §3: OpenAI and Gemini). */
const REALTIME_DEFAULTS = {
  openai: { url: 'wss://api.openai.com/v1/realtime', model: 'gpt-4o-mini-realtime-preview', voice: 'alloy' },
  gemini: {
    url: 'wss://generativelanguage.googleapis.com/ws/google.ai.generativelanguage.v1alpha.GenerativeService.BidiGenerateContent',
    model: 'gemini-2.0-flash-exp',
    voice: 'Puck',
  },
} as const;
import { AccountStatus, AVATAR_ENGINE_NAMES, AvatarEngine } from '@parla/shared/enums';
import { planName } from '@parla/shared/plans';
import {
  AvatarPermission,
  ENCRYPTION_DEFAULT,
  ENCRYPTION_NONE,
  hasPermission,
  knowledgeSettings,
  type CustomData,
  type PipelineConfig,
} from '@parla/shared/schemas/avatar';
import { normaliseOrigin } from '@parla/shared/schemas/allowed-origins';
import { applyUrlOverrides, parseUrlOverrides, type UrlOverride } from '@parla/shared/provider-urls';
import type { AppContext } from '../context';
import { AppError } from '../lib/errors';
import { assertOwnerActive, fixedTokenOpens } from '../modules/avatars/avatars.access';
import { findPublic as findPublicAvatar, findWithOwnerStatus, isAvatarId, planOf } from '../modules/avatars/avatars.repository';
import { linkedCollectionIds, linkedFunctionIds } from '../modules/avatars/avatar-links.repository';
import { findManyByOwner as findFunctions } from '../modules/functions/functions.repository';
import { findCollections } from '../modules/knowledge/knowledge.repository';
import { reveal, revealPipeline } from '../modules/avatars/avatars.secrets';
import { verifyAvatarAccessToken } from '../modules/encryption-keys/encryption-keys.service';
import { searchChunks } from '../modules/knowledge/knowledge.search';
import type { AccessRequest, AvatarLimits, ResolvedAvatar } from './avatar';
import { DEFAULT_LIMITS } from './avatar';
import { settingsOf } from './avatar-settings';
import { withSettings } from './engine-settings';
import { parseServiceAccount } from './engines/google-auth';
import type { RuntimeHooks } from './hooks';
import { bool, num, obj, str } from './loose';
import { SpeechConfigMapper, sttKey } from './speech-config';
import { CatalogueService } from '../modules/catalogue/catalogue.service';
import { describePythonFunction } from './python-signature';
import { DEFAULT_REALTIME_VAD, type EngineConfig, type FunctionTool, type LlmConfig, type RetrievedChunk } from './types';

export const SIMPLE_MODE_UNCONFIGURED =
  "This avatar uses the product's own language model (Simple mode), but none is configured on this server. The administrator sets LLM_BASE_URL and LLM_API_KEY.";

function unavailable(what: string): EngineConfig {
  return {
    kind: 'unavailable',
    message: `This avatar's brain is not fully configured: ${what}. Its owner can complete it in the Brain tab.`,
  };
}

let catalogue: CatalogueService | null = null;
/** The catalogue appearance's voice gender: the embedded voice that fits the face (decision 122). */
function genderOf(appearanceId: string): string | undefined {
  catalogue ??= new CatalogueService();
  return catalogue.avatar(appearanceId)?.voiceGender;
}

type AvatarRow = NonNullable<Awaited<ReturnType<typeof loadAvatar>>>;

function loadAvatar(ctx: AppContext, id: string) {
  return findPublicAvatar(ctx.db, id);
}

/**
 * Access (spec 3 §3 encryption options), the same rule as the avatar's public view: None opens it
 * to anyone; Default the avatar's own link token (only Default: decision 207), or an ES256 JWT signed by its key
 * (the account's default key for the Default option) whose single use is spent here, by the
 * conversation it was made for. Throws invalidToken.
 */
async function checkAccess(ctx: AppContext, row: AvatarRow, token: string | null): Promise<string | null> {
  const option = row.enc_key_id || ENCRYPTION_DEFAULT;
  if (option === ENCRYPTION_NONE) return null;
  if (!token || token.length > 4096) throw AppError.invalidToken();
  if (fixedTokenOpens(row, token)) return null;
  if (token.split('.').length !== 3) throw AppError.invalidToken();
  const claims = await verifyAvatarAccessToken(ctx, row.owner_id, option, token);
  if (claims.sub !== row.id) throw AppError.invalidToken();
  // The signer vouches for the end user: their id keys the conversation memory (summaries).
  const userId = typeof claims.userId === 'string' ? claims.userId.trim().slice(0, 200) : '';
  return userId || null;
}

export function limitsOf(
  row: Pick<AvatarRow, 'daily_limit_per_session' | 'daily_limit_per_ip' | 'daily_limits' | 'idle_timeout'>,
): AvatarLimits {
  const daily = obj(row.daily_limits);
  const positiveOrUnlimited = (v: unknown) => {
    const n = num(v, -1);
    return n === -1 || n > 0 ? n : -1;
  };
  const idle = num(row.idle_timeout, DEFAULT_LIMITS.idleTimeout);
  return {
    dailyLimitPerSession: positiveOrUnlimited(row.daily_limit_per_session),
    dailyLimitPerIP: positiveOrUnlimited(row.daily_limit_per_ip),
    demo: positiveOrUnlimited(daily.Demo ?? daily.demo),
    idleTimeout: idle > 0 ? idle : DEFAULT_LIMITS.idleTimeout,
  };
}

export class AvatarConfigMapper {
  private readonly overrides: UrlOverride[];
  private readonly speech: SpeechConfigMapper;

  constructor(private readonly ctx: AppContext) {
    this.overrides = parseUrlOverrides(ctx.config.PROVIDER_URL_OVERRIDES ?? '').overrides;
    this.speech = new SpeechConfigMapper(ctx.config, (u) => this.url(u));
  }

  /** A provider URL with its host redirected when PROVIDER_URL_OVERRIDES names it (tests point
   *  the providers' public hosts at loopback stand-ins; deployments at private gateways). */
  url(u: string): string {
    return applyUrlOverrides(u, this.overrides);
  }

  private secret(v: unknown): string {
    return str(v);
  }

  private llm(row: AvatarRow, p: PipelineConfig, tools: FunctionTool[]): EngineConfig {
    const llm = obj(p.llm);
    const simple = row.setup_mode === 'Simple';
    const instructions = str(llm.instructions) || str(p.instructions) || 'You are a helpful assistant. Reply in 15 to 35 words.';
    const memory = str(llm.custom_text);
    const maxTokens = num(llm.max_tokens, 0);
    const base: Omit<LlmConfig, 'baseUrl' | 'apiKey' | 'model'> = {
      kind: 'llm',
      instructions,
      memory,
      sendHistory: true,
      tools,
      ...(maxTokens > 0 ? { maxTokens } : {}),
    };
    if (simple) {
      const baseUrl = this.ctx.config.LLM_BASE_URL;
      if (!baseUrl) return { kind: 'unavailable', message: SIMPLE_MODE_UNCONFIGURED };
      return { ...base, baseUrl: this.url(baseUrl), apiKey: this.ctx.config.LLM_API_KEY ?? '', model: str(llm.model) || 'default' };
    }
    const baseUrl = str(llm.base_url);
    const apiKey = this.secret(llm.api_key);
    const model = str(llm.model);
    if (!baseUrl) return unavailable('no base URL');
    if (!apiKey) return unavailable('no API key');
    const assistantId = str(llm.assistant_id);
    if (
      row.nlp_engine === AvatarEngine.CustomChatGPTAssistant ||
      (assistantId && str(llm.interaction_type ?? llm.interactionType) !== 'prompt' && row.nlp_engine !== AvatarEngine.LargeLanguageModel)
    ) {
      if (!assistantId) return unavailable('no assistant');
      return {
        kind: 'assistant',
        baseUrl: this.url(baseUrl),
        apiKey,
        assistantId,
        ...(str(llm.instructions) ? { instructions: str(llm.instructions) } : {}),
      };
    }
    if (!model) return unavailable('no model');
    return { ...base, baseUrl: this.url(baseUrl), apiKey, model };
  }

  private llmOf(row: AvatarRow, p: PipelineConfig, tools: FunctionTool[]): LlmConfig | null {
    const c = this.llm(row, p, tools);
    return c.kind === 'llm' ? c : null;
  }

  /** Approved functions linked to the avatar (code approved as it is now); nothing else. */
  async tools(row: AvatarRow): Promise<FunctionTool[]> {
    const ids = await linkedFunctionIds(this.ctx.db, row.id);
    if (!ids.length) return [];
    const rows = await findFunctions(this.ctx.db, row.owner_id, ids);
    const tools: FunctionTool[] = [];
    for (const f of rows) {
      const approved = f.approval_status === 'Approved' && !!f.approved_code_sha256 && f.approved_code_sha256 === f.code_sha256;
      if (!approved) continue;
      const d = describePythonFunction(f.code);
      if (!d) continue;
      tools.push({
        id: f.id,
        name: d.name,
        description: d.description || f.name,
        parameters: d.parameters,
        code: f.code,
        approved,
        ownerId: row.owner_id,
        avatarId: row.id,
      });
    }
    return tools;
  }

  async engine(row: AvatarRow): Promise<EngineConfig> {
    const custom = obj(row.custom_data) as CustomData;
    const p = obj(revealPipeline(this.ctx.secrets, custom.agent_pipeline_config ?? {})) as PipelineConfig;
    const brain = await this.brain(row, p);
    if (brain.kind === 'pipeline' || brain.kind === 'realtime' || brain.kind === 'elevenlabs' || brain.kind === 'agora_ten') return brain;
    const speech = this.speech.speech(row.setup_mode === 'Simple', p, genderOf(row.appearance_id));
    return speech ? { ...brain, speech } : brain;
  }

  private async brain(row: AvatarRow, p: PipelineConfig): Promise<EngineConfig> {
    const tools = row.realtime ? await this.tools(row) : [];
    switch (row.nlp_engine) {
      case AvatarEngine.EchoTest:
        return { kind: 'echo' };
      case AvatarEngine.RestEndpoint: {
        const url = str(row.rest_endpoint_url);
        const apiKey = reveal(this.ctx.secrets, row.rest_api_key_enc) ?? '';
        if (!url) return unavailable('no REST endpoint URL');
        const memory = str(obj(p.llm).custom_text);
        return { kind: 'rest', url: this.url(url), apiKey, ...(memory ? { memory } : {}), language: row.agent_language };
      }
      case AvatarEngine.DialogflowES:
      case AvatarEngine.DialogflowCX: {
        const keyText = reveal(this.ctx.secrets, row.json_key_enc);
        if (!keyText) return unavailable('no Dialogflow JSON key');
        let sa;
        try {
          sa = parseServiceAccount(keyText);
        } catch (err) {
          return unavailable(err instanceof Error ? err.message.replace(/^Dialogflow: /, '') : 'an unreadable JSON key');
        }
        const projectId = str(row.project_id) || sa.project_id || '';
        const cx = row.nlp_engine === AvatarEngine.DialogflowCX;
        const regionId = str(row.region_id) || 'global';
        const apiBase = cx && regionId !== 'global' ? `https://${regionId}-dialogflow.googleapis.com` : 'https://dialogflow.googleapis.com';
        return {
          kind: cx ? 'dialogflow_cx' : 'dialogflow_es',
          projectId,
          serviceAccount: { ...sa, token_uri: this.url(sa.token_uri) },
          language: row.agent_language || 'en',
          apiBase: this.url(apiBase),
          ...(cx ? { agentId: str(row.agent_id), regionId } : {}),
        };
      }
      case AvatarEngine.CustomChatGPTPrompt:
      case AvatarEngine.CustomChatGPTAssistant:
      case AvatarEngine.LargeLanguageModel:
        return this.llm(row, p, tools);
      case AvatarEngine.ParlaRealtime: {
        const url = str(p.url) || REALTIME_DEFAULTS.openai.url;
        const provider = url.includes('generativelanguage') ? 'gemini' : 'openai';
        const apiKey = this.secret(p.api_key);
        if (!apiKey) return unavailable('no realtime API key');
        const v = obj(p.vad_options);
        return {
          kind: 'realtime',
          provider,
          url: this.url(url),
          apiKey,
          model: str(p.model) || REALTIME_DEFAULTS[provider].model,
          voice: str(p.voice_id) || REALTIME_DEFAULTS[provider].voice,
          instructions: str(p.instructions) || 'You are a helpful assistant.',
          ...(str(p.greeting) ? { greeting: str(p.greeting) } : {}),
          vad: {
            threshold: num(v.threshold, DEFAULT_REALTIME_VAD.threshold),
            prefixPaddingMs: num(v.prefix_padding_ms, DEFAULT_REALTIME_VAD.prefixPaddingMs),
            silenceDurationMs: num(v.silence_duration_ms, DEFAULT_REALTIME_VAD.silenceDurationMs),
          },
          tools,
        };
      }
      case AvatarEngine.ElevenLabsConversationAI: {
        const t = obj(p.third_party);
        const agentId = str(t.agent_id);
        if (!agentId) return unavailable('no agent id');
        const apiKey = this.secret(t.api_key);
        return {
          kind: 'elevenlabs',
          agentId,
          ...(apiKey && !bool(t.is_public, false) ? { apiKey } : {}),
          connectionType: str(t.connection_type) === 'webrtc' ? 'webrtc' : 'websocket',
          apiBase: this.url('https://api.elevenlabs.io'),
        };
      }
      case AvatarEngine.Ten: {
        const t = obj(p.third_party);
        const appId = str(t.agent_id);
        const appCertificate = this.secret(t.api_key);
        if (!appId || !appCertificate) return unavailable('no Agora app id or certificate');
        return { kind: 'agora_ten', appId, appCertificate };
      }
      case AvatarEngine.CUSTOM_STT_LLM_TTS: {
        const stt = this.speech.stt(p);
        const tts = this.speech.tts(p, genderOf(row.appearance_id));
        const llm = this.llmOf(row, p, tools);
        // "Default" recognition with no speech server is the browser's (as for every other brain):
        // the avatar answers as a language model with server speech beside it (engine() adds it),
        // instead of refusing every visitor. Only "None" (or nothing known) leaves it without one.
        if (!stt && sttKey(p) === 'default' && llm) return llm;
        if (!stt) return unavailable('no speech-to-text provider (Default needs the server speech, SPEECH_BASE_URL)');
        if (!tts) return unavailable('no text-to-speech provider');
        if (!llm) return this.llm(row, p, tools);
        return { kind: 'pipeline', stt, llm, tts, turn: this.speech.turn(p) };
      }
      default:
        return { kind: 'echo' };
    }
  }

  /** Allowed websites (docs/decisions/205-allowed-websites.md): null lets any page open a
   *  conversation; a list adds the portal's own origin (its player pages, the editor preview and
   *  the access link are served from PUBLIC_URL), so they keep working whatever the list says. */
  allowedOrigins(row: Pick<AvatarRow, 'allowed_origins'>): string[] | null {
    const listed = (Array.isArray(row.allowed_origins) ? row.allowed_origins : [])
      .map((o) => normaliseOrigin(String(o)))
      .filter((o): o is string => o !== null);
    if (!listed.length) return null;
    let own: string | null = null;
    try {
      own = normaliseOrigin(new URL(this.ctx.config.PUBLIC_URL).origin);
    } catch {
      own = null;
    }
    return [...new Set([...(own ? [own] : []), ...listed])];
  }

  /** The avatar's linked collections when its engine uses knowledge. */
  private async retrieval(avatarId: string, usesKnowledge: boolean, custom: CustomData): Promise<ResolvedAvatar['retrieval']> {
    if (!usesKnowledge) return null;
    const collectionIds = await linkedCollectionIds(this.ctx.db, avatarId);
    return collectionIds.length ? { collectionIds, ...knowledgeSettings(custom) } : null;
  }

  async resolve(req: AccessRequest): Promise<ResolvedAvatar> {
    const row = isAvatarId(req.avatarId) ? await loadAvatar(this.ctx, req.avatarId) : undefined;
    if (!row) throw AppError.notFound('Avatar');
    await assertOwnerActive(this.ctx, row.owner_id);
    const verifiedUserId = await checkAccess(this.ctx, row, req.token);
    const engine = withSettings(await this.engine(row), row);
    const usesKnowledge = engine.kind === 'llm' || engine.kind === 'assistant' || engine.kind === 'pipeline';
    const oauthAppId = row.oauth_enabled === 1 && row.partner_oauth_app_id ? Number(row.partner_oauth_app_id) : null;
    return {
      id: row.id,
      ownerId: row.owner_id,
      name: row.name,
      type: row.dh_type,
      engineName:
        engine.kind === 'echo'
          ? AVATAR_ENGINE_NAMES[AvatarEngine.EchoTest]
          : ((AVATAR_ENGINE_NAMES as Record<number, string>)[row.nlp_engine] ?? 'Echo'),
      engine,
      limits: limitsOf(row),
      retrieval: await this.retrieval(row.id, usesKnowledge, obj(row.custom_data) as CustomData),
      allowedOrigins: this.allowedOrigins(row),
      sendHistory: hasPermission(row.permissions, AvatarPermission.canSendChatHistory),
      oauthAppId: oauthAppId && Number.isInteger(oauthAppId) ? oauthAppId : null,
      settings: settingsOf(
        row,
        planName((await planOf(this.ctx.db, row.owner_id)) ?? 0),
        reveal(this.ctx.secrets, row.billing_auth_header_enc),
      ),
      verifiedUserId,
    };
  }
}

/** The runtime's hooks over saved avatars, knowledge and OAuth configs. */
export function avatarHooks(): RuntimeHooks {
  let mapper: AvatarConfigMapper | null = null;
  const m = (ctx: AppContext) => (mapper ??= new AvatarConfigMapper(ctx));
  return {
    resolveAvatar: (ctx, req) => m(ctx).resolve(req),
    retrieve: async (ctx, ownerId, collectionIds, query, topK, threshold): Promise<RetrievedChunk[]> => {
      const owned = await findCollections(ctx.db, ownerId, collectionIds);
      if (!owned.length) return [];
      const hits = await searchChunks(ctx, ownerId, {
        collection_ids: owned.map((c) => c.id),
        query: query.slice(0, 1000),
        top_k: topK,
        score_threshold: threshold,
      });
      return hits.map((h) => ({ text: h.text, source: h.item_name, itemId: h.item_id, score: h.score }));
    },
    oauthAppOf: async (ctx, avatarId) => {
      if (!isAvatarId(avatarId)) return null;
      // A suspended account's avatar sends no one to its partner (decision 208): its conversation
      // is refused by resolveAvatar instead.
      const row = await findWithOwnerStatus(ctx.db, avatarId);
      if (!row || row.status !== AccountStatus.Active || row.oauth_enabled !== 1 || !row.partner_oauth_app_id) return null;
      const appId = Number(row.partner_oauth_app_id);
      return Number.isInteger(appId) ? { ownerId: row.owner_id, appId } : null;
    },
  };
}
