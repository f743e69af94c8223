// Issue 38: an avatar's knowledge gaps and its conversation insight, for its owner
// (design/api.md path style: under the avatar). Validate → authenticate → service → reply.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  gapAnswerRequest,
  gapParams,
  insightConversationsQuery,
  insightExportQuery,
  insightQuery,
  knowledgeGapsQuery,
} from '@parla/shared/schemas/insight';
import type { AppContext } from '../../context';
import { requireUser } from '../../plugins/auth';
import { exportTranscripts, insight, insightConversations } from './insight.service';
import { answerGap, dismissGap, listKnowledgeGaps } from './knowledge-gaps.service';

const avatarParams = z.object({ avatarId: z.string().max(100, 'id is too long') });

export function insightRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/avatars/:avatarId/knowledge-gaps', { schema: { params: avatarParams, querystring: knowledgeGapsQuery } }, (request) =>
      listKnowledgeGaps(ctx, requireUser(request).id, request.params.avatarId, request.query),
    );

    app.post('/api/avatars/:avatarId/knowledge-gaps/:gapId/answer', { schema: { params: gapParams, body: gapAnswerRequest } }, (request) =>
      answerGap(ctx, requireUser(request).id, request.params.avatarId, request.params.gapId, request.body),
    );

    app.post('/api/avatars/:avatarId/knowledge-gaps/:gapId/dismiss', { schema: { params: gapParams } }, (request) =>
      dismissGap(ctx, requireUser(request).id, request.params.avatarId, request.params.gapId),
    );

    app.get('/api/avatars/:avatarId/insight', { schema: { params: avatarParams, querystring: insightQuery } }, (request) =>
      insight(ctx, requireUser(request).id, request.params.avatarId, request.query),
    );

    app.get(
      '/api/avatars/:avatarId/insight/conversations',
      { schema: { params: avatarParams, querystring: insightConversationsQuery } },
      (request) => insightConversations(ctx, requireUser(request).id, request.params.avatarId, request.query),
    );

    app.get(
      '/api/avatars/:avatarId/insight/export',
      { schema: { params: avatarParams, querystring: insightExportQuery } },
      async (request, reply) => {
        const q = request.query;
        const stream = await exportTranscripts(ctx, requireUser(request).id, request.params.avatarId, q);
        reply
          .header('content-type', q.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
          .header('content-disposition', `attachment; filename="conversations-${q.from}-${q.to}.${q.format}"`);
        return reply.send(stream);
      },
    );
  };
}
