// The provider's config-files paths (design/api.md): an avatar's config JSON and client JSON for
// its owner (the editor reads them; another account's avatar is not found), and the avatar's own
// media (backgrounds, 3D environments, photo), public under unguessable ids because the player
// on a customer's site loads them without a session.
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { avatarIdReference } from '@parla/shared/schemas/avatar-id';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { sendStoredFile } from '../../lib/file-response';
import { requireUser } from '../../plugins/auth';
import { findMediaFile, isAvatarId } from '../avatars/avatars.repository';
import { getAvatar } from '../avatars/avatars.service';

const params = z.object({ id: avatarIdReference });
const mediaParams = z.object({ id: avatarIdReference, file: z.string().regex(/^[0-9a-f-]{36}\.[a-z0-9]{1,8}$/i, 'Media not found.') });

export function configFilesRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/config-files/avatars/:id/avatar.json', { schema: { params }, config: { auth: 'user' } }, async (request, reply) => {
      const avatar = await getAvatar(ctx, requireUser(request).id, request.params.id);
      return reply.header('cache-control', 'no-store').send(avatar.avatarJson);
    });

    app.get('/config-files/avatars/:id/client.json', { schema: { params }, config: { auth: 'user' } }, async (request, reply) => {
      const avatar = await getAvatar(ctx, requireUser(request).id, request.params.id);
      return reply.header('cache-control', 'no-store').send(avatar.clientJson);
    });

    app.get(
      '/config-files/avatars/:id/media/:file',
      { schema: { params: mediaParams }, config: { auth: 'none' } },
      async (request, reply) => {
        const [fileId, ext] = request.params.file.split('.') as [string, string];
        const media = isAvatarId(request.params.id) ? await findMediaFile(ctx.db, request.params.id, fileId.toLowerCase()) : undefined;
        if (!media || media.ext !== ext.toLowerCase()) throw AppError.notFound('Media');
        reply
          .header('content-type', media.content_type)
          .header('content-disposition', 'inline')
          .header('cross-origin-resource-policy', 'cross-origin');
        // From the database's chunks (decision 015): byte ranges (206, Content-Range, 416 with
        // `bytes */size`), HEAD and conditional requests, as @fastify/send answered from disk.
        return sendStoredFile(ctx.files, ctx.db, request, reply, media, {
          cacheControl: 'public, max-age=31536000, immutable',
          what: 'Media',
        });
      },
    );
  };
}
