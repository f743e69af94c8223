// The provider's config-files paths (design/api.md): an avatar's config JSON and client JSON for
// its owner (the editor reads them; another account's avatar is not found), and the avatar's own
// media (backgrounds, 3D environments, photo), public under unguessable ids because the player
// on a customer's site loads them without a session.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { avatarIdReference } from '@parla/shared/schemas/avatar-id';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { requireUser } from '../../plugins/auth';
import { findMediaFile, isAvatarId } from '../avatars/avatars.repository';
import { getAvatar } from '../avatars/avatars.service';

const params = z.object({ id: avatarIdReference });
const mediaParams = z.object({ id: avatarIdReference, file: z.string().regex(/^[0-9a-f-]{36}\.[a-z0-9]{1,8}$/i, 'Media not found.') });

/** One byte range of `bytes=a-b` (videos seek with these); anything else means the whole file. */
function byteRange(header: string | undefined, size: number): { start: number; end: number } | null | 'invalid' {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  return start > end || start >= size ? 'invalid' : { start, end };
}

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

    app.get('/config-files/avatars/:id/media/:file', { schema: { params: mediaParams }, config: { auth: 'none' } }, async (request, reply) => {
      const [fileId, ext] = request.params.file.split('.') as [string, string];
      const media = isAvatarId(request.params.id) ? await findMediaFile(ctx.db, request.params.id, fileId.toLowerCase()) : undefined;
      if (!media || media.ext !== ext.toLowerCase()) throw AppError.notFound('Media');
      const path = ctx.files.absolute(media.rel_path);
      const size = (await stat(path).catch(() => null))?.size;
      if (size === undefined) throw AppError.notFound('Media');
      reply
        .header('content-type', media.content_type)
        .header('accept-ranges', 'bytes')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('content-disposition', 'inline')
        .header('cross-origin-resource-policy', 'cross-origin');
      const range = byteRange(request.headers.range, size);
      if (range === 'invalid') return reply.status(416).header('content-range', `bytes */${size}`).send();
      if (range) {
        reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`).header('content-length', range.end - range.start + 1);
        return reply.send(createReadStream(path, { start: range.start, end: range.end }));
      }
      reply.header('content-length', size);
      return reply.send(createReadStream(path));
    });
  };
}
