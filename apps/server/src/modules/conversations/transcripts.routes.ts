// Transcripts: an avatar's past conversations and a transcript (JSON, or a text or JSON file) for
// its owner; the end user's own transcript for the player's download button (Enable Transcript
// Download), by the key their conversation's `ready` carried.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  avatarConversationsQuery,
  playerTranscriptQuery,
  transcriptFileName,
  transcriptQuery,
  transcriptText,
  type Transcript,
} from '@parla/shared/schemas/transcripts';
import type { AppContext } from '../../context';
import { requireUser } from '../../plugins/auth';
import { listAvatarConversations, playerTranscript, transcriptOf } from './transcripts.service';

const idParam = z.string().max(100, 'id is too long');

function send(reply: FastifyReply, t: Transcript, format: 'json' | 'text' | undefined, download: boolean) {
  if (format === 'text') {
    reply.header('content-type', 'text/plain; charset=utf-8');
    if (download) reply.header('content-disposition', `attachment; filename="${transcriptFileName(t, 'txt')}"`);
    return reply.send(transcriptText(t));
  }
  if (download) reply.header('content-disposition', `attachment; filename="${transcriptFileName(t, 'json')}"`);
  return reply.send({ status: 'OK', ...t });
}

export function transcriptRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/avatars/:avatarId/conversations',
      { schema: { params: z.object({ avatarId: idParam }), querystring: avatarConversationsQuery } },
      async (request) => {
        const { page, pageSize } = request.query;
        return { status: 'OK', ...(await listAvatarConversations(ctx, requireUser(request).id, request.params.avatarId, page, pageSize)) };
      },
    );

    app.get(
      '/api/conversations/:id/transcript',
      { schema: { params: z.object({ id: idParam }), querystring: transcriptQuery } },
      async (request, reply) => {
        const ownerId = requireUser(request).id;
        await request.server.runtime.transcripts.flush();
        const t = await transcriptOf(ctx, ownerId, request.params.id);
        return send(reply, t, request.query.format, request.query.download === '1');
      },
    );

    app.get(
      '/api/conversation/transcript/:id',
      { config: { auth: 'none' }, schema: { params: z.object({ id: idParam }), querystring: playerTranscriptQuery } },
      async (request, reply) => {
        // The end user downloads what they just said and heard: the messages this process still
        // buffers (written in batches off the turn's path, decision 615) are written first.
        await request.server.runtime.transcripts.flush();
        const t = await playerTranscript(ctx, request.params.id, request.query.key);
        return send(reply, t, request.query.format ?? 'text', true);
      },
    );
  };
}
