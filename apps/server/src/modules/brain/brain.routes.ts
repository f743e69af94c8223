// Brain look-ups (spec 3 §7, docs/api.md "Brain look-ups"): the provider proxy, voice and
// language lists, LLM models, OpenAI assistants, the third-party agent check, and the provider
// catalogue the forms offer. Validate → authenticate → service → reply.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  agentCheckRequest,
  assistantsRequest,
  llmModelsRequest,
  proxyRequest,
  sttListVoicesRequest,
  ttsListVoicesRequest,
} from '@parla/shared/schemas/brain';
import type { AppContext } from '../../context';
import { requireUser } from '../../plugins/auth';
import { brainCatalogue } from './brain.catalogue';
import { assistants, checkAgent, llmModels } from './lookups';
import { proxy } from './proxy';
import { avatarPipelineLoader } from './avatar-brain';
import type { KeyScope, PipelineLoader } from './stored-keys';
import { listSttLanguages, listTtsVoices } from './voices';

/** Look-ups call third parties: a person clicking through forms stays far below this. */
const LOOKUP_RATE = { rateLimit: { max: 120, timeWindow: 60_000 } };

export function brainRoutes(ctx: AppContext, loader: PipelineLoader = avatarPipelineLoader(ctx)): FastifyPluginAsyncZod {
  const catalogue = brainCatalogue(ctx.config);
  const scope = (request: FastifyRequest, avatarId?: string): KeyScope => ({ ctx, loader, ownerId: requireUser(request).id, avatarId });

  return async (app) => {
    app.get('/api/brain/catalogue', { config: { auth: 'user' } }, async () => catalogue);

    app.post('/api/proxy', { schema: { body: proxyRequest }, config: { auth: 'user', ...LOOKUP_RATE } }, (request) =>
      proxy(scope(request, request.body.avatarId), catalogue, request.body),
    );

    app.post('/api/stt/list_voices', { schema: { body: sttListVoicesRequest }, config: { auth: 'user' } }, async (request) =>
      listSttLanguages(request.body),
    );

    app.post('/api/tts/list_voices', { schema: { body: ttsListVoicesRequest }, config: { auth: 'user', ...LOOKUP_RATE } }, (request) =>
      listTtsVoices(scope(request, request.body.avatarId), catalogue, request.body),
    );

    app.post('/api/llm/models', { schema: { body: llmModelsRequest }, config: { auth: 'user', ...LOOKUP_RATE } }, (request) =>
      llmModels(scope(request, request.body.avatarId), catalogue, request.body),
    );

    app.post('/api/llm/assistants', { schema: { body: assistantsRequest }, config: { auth: 'user', ...LOOKUP_RATE } }, (request) =>
      assistants(scope(request, request.body.avatarId), catalogue, request.body),
    );

    app.post('/api/third_party/agent_check', { schema: { body: agentCheckRequest }, config: { auth: 'user', ...LOOKUP_RATE } }, (request) =>
      checkAgent(scope(request, request.body.avatarId), catalogue, request.body),
    );
  };
}
