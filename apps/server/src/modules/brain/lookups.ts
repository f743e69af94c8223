// LLM models (OpenAI shape GET {base}/models → data[].id; Gemini GET models?key= → models[].name),
// OpenAI assistants (GET {base}/assistants?order=desc&limit=100), and the third-party agent check
// (spec 3 §4: public without a key, private with it, 401/403 invalid key, 404 or anything else
// invalid agent id).
import { z } from 'zod';
import { AGENT_ID_MIN_LENGTH } from '@parla/shared/brain-limits';
import { AvatarEngine } from '@parla/shared/enums';
import { llmProviderForUrl, realtimeProviderForUrl, type BrainCatalogue } from '@parla/shared/provider-urls';
import type { LlmProvider } from '@parla/shared/providers';
import {
  BRAIN_MESSAGES,
  type AgentCheckResponse,
  type AssistantsResponse,
  type LlmModelsResponse,
  type agentCheckRequest,
  type assistantsRequest,
  type llmModelsRequest,
} from '@parla/shared/schemas/brain';
import { agentKeyPresent } from '@parla/shared/schemas/brain-forms';
import { CUSTOM_LLM_LABEL, CUSTOM_LLM_MESSAGES, CUSTOM_LLM_PROVIDER } from '@parla/shared/schemas/custom-llm';
import { AppError } from '../../lib/errors';
import { BASE_URL_REFUSED, checkedCustomBaseUrl } from './custom-llm';
import { callProvider, isAuthFailure, isOk, providerRejected, providerUnreachable } from './provider-call';
import { obj, resolveKey, type KeyScope, type Loose } from './stored-keys';

const openAiModels = z.looseObject({ data: z.array(z.looseObject({ id: z.string() })) });
const geminiModels = z.looseObject({
  models: z.array(z.looseObject({ name: z.string(), supportedGenerationMethods: z.array(z.string()).nullish() })),
});
const openAiAssistants = z.looseObject({
  data: z.array(z.looseObject({ id: z.string(), name: z.string().nullish(), model: z.string().nullish() })),
});

function offered(c: BrainCatalogue, baseUrl: string): LlmProvider {
  const p = llmProviderForUrl(c, baseUrl);
  if (!p) throw AppError.invalid(BRAIN_MESSAGES.baseUrlUnknown, 'BASE_URL_UNKNOWN');
  return p;
}

/** The stored llm key belongs to this provider when the saved base URL is the same one. */
const llmKeyOf = (p: LlmProvider) => (pipeline: Loose) => String(obj(pipeline.llm).base_url ?? '').replace(/\/+$/, '') === p.baseUrl;
/** The stored speech-to-speech key belongs to the realtime provider of the same company. */
const realtimeKeyOf = (c: BrainCatalogue, p: LlmProvider) => (pipeline: Loose) =>
  realtimeProviderForUrl(c, String(pipeline.url ?? ''))?.id === p.id;

/** A custom OpenAI-compatible base URL (Composite mode): the guard decides whether it is reachable. */
function customTarget(scope: KeyScope, c: BrainCatalogue, raw: string): LlmProvider {
  const listed = llmProviderForUrl(c, raw);
  if (listed) return listed;
  const baseUrl = checkedCustomBaseUrl(scope.ctx, raw);
  return {
    id: CUSTOM_LLM_PROVIDER as LlmProvider['id'],
    name: CUSTOM_LLM_LABEL,
    baseUrl,
    modelsUrl: `${baseUrl}/models`,
    modelsShape: 'openai',
    assistants: false,
  };
}

const refusedCustom = (reason: string) => AppError.invalid(`${CUSTOM_LLM_MESSAGES.refused}: ${reason}.`, BASE_URL_REFUSED);

export async function llmModels(scope: KeyScope, c: BrainCatalogue, body: z.infer<typeof llmModelsRequest>): Promise<LlmModelsResponse> {
  const p = body.custom ? customTarget(scope, c, body.baseUrl) : offered(c, body.baseUrl);
  const ref = body.custom ? 'llm' : (body.secretRef ?? 'llm');
  const key = await resolveKey(scope, body.apiKey, ref, ref === 'llm' ? llmKeyOf(p) : realtimeKeyOf(c, p));
  if (!key) throw AppError.invalid(BRAIN_MESSAGES.apiKeyRequired);
  const answer =
    p.modelsShape === 'gemini'
      ? await callProvider(scope.ctx, `${p.modelsUrl}?key=${encodeURIComponent(key)}&pageSize=1000`)
      : await callProvider(
          scope.ctx,
          p.modelsUrl,
          { authorization: `Bearer ${key}` },
          (p.id as string) === CUSTOM_LLM_PROVIDER ? refusedCustom : undefined,
        );
  if (answer.status >= 500) throw providerUnreachable();
  if (!isOk(answer)) throw providerRejected(BRAIN_MESSAGES.invalidUrlOrKey, 'INVALID_URL_OR_KEY');
  let models: string[];
  if (p.modelsShape === 'gemini') {
    const r = geminiModels.safeParse(answer.data);
    if (!r.success) throw providerRejected(BRAIN_MESSAGES.invalidUrlOrKey, 'INVALID_URL_OR_KEY');
    models = r.data.models
      .filter((m) => !m.supportedGenerationMethods || m.supportedGenerationMethods.includes('generateContent'))
      .map((m) => m.name.replace(/^models\//, ''));
  } else {
    const r = openAiModels.safeParse(answer.data);
    if (!r.success) throw providerRejected(BRAIN_MESSAGES.invalidUrlOrKey, 'INVALID_URL_OR_KEY');
    models = r.data.data.map((m) => m.id);
  }
  return { models: [...new Set(models)].sort((a, b) => a.localeCompare(b)) };
}

export async function assistants(scope: KeyScope, c: BrainCatalogue, body: z.infer<typeof assistantsRequest>): Promise<AssistantsResponse> {
  const p = offered(c, body.baseUrl);
  if (!p.assistants) throw AppError.invalid(BRAIN_MESSAGES.baseUrlUnknown, 'BASE_URL_UNKNOWN');
  const key = await resolveKey(scope, body.apiKey, 'llm', llmKeyOf(p));
  if (!key) throw AppError.invalid(BRAIN_MESSAGES.apiKeyRequired);
  const answer = await callProvider(scope.ctx, `${p.baseUrl}/assistants?order=desc&limit=100`, {
    authorization: `Bearer ${key}`,
    'openai-beta': 'assistants=v2',
  });
  if (isAuthFailure(answer)) throw providerRejected(BRAIN_MESSAGES.invalidKey, 'INVALID_KEY');
  if (answer.status >= 500) throw providerUnreachable();
  const r = openAiAssistants.safeParse(answer.data);
  if (!isOk(answer) || !r.success) throw providerRejected(BRAIN_MESSAGES.assistantsFailed, 'ASSISTANTS_FAILED');
  return { assistants: r.data.data.map((a) => ({ id: a.id, name: a.name ?? null, model: a.model ?? '' })) };
}

export async function checkAgent(scope: KeyScope, c: BrainCatalogue, body: z.infer<typeof agentCheckRequest>): Promise<AgentCheckResponse> {
  const id = body.agent_id.trim();
  if (id.length < AGENT_ID_MIN_LENGTH) return { status: 'idle' };
  const url = `${c.endpoints.elevenlabs}/convai/conversation/token?agent_id=${encodeURIComponent(id)}`;
  const call = async (headers: Record<string, string>) => {
    try {
      return await callProvider(scope.ctx, url, headers);
    } catch {
      return null;
    }
  };
  const first = await call({});
  if (first && isOk(first)) return { status: 'public' };
  const given = agentKeyPresent(body.api_key) ? body.api_key : undefined;
  // Only an ElevenLabs agent's stored key (a TEN avatar keeps its Agora certificate there).
  const key = await resolveKey(scope, given, 'third_party', (_p, engine) => engine === AvatarEngine.ElevenLabsConversationAI);
  if (!key) {
    if (first && isAuthFailure(first)) return { status: 'invalid_api_key', message: BRAIN_MESSAGES.checkKeyRequired };
    if (first && first.status === 404) return { status: 'invalid_agent_id', message: BRAIN_MESSAGES.checkAgentNotFound };
    return { status: 'invalid_agent_id', message: BRAIN_MESSAGES.checkFailed };
  }
  const second = await call({ 'xi-api-key': key });
  if (second && isOk(second)) return { status: 'private' };
  if (second && isAuthFailure(second)) return { status: 'invalid_api_key', message: BRAIN_MESSAGES.checkKeyInvalid };
  if (second && second.status === 404) return { status: 'invalid_agent_id', message: BRAIN_MESSAGES.checkAgentNotFound };
  return { status: 'invalid_agent_id', message: BRAIN_MESSAGES.checkFailed };
}
