// Avatar calls of spec 2 §7 (design/api.md) and the player's public view of an avatar.
// Validate → authenticate → service → reply; multipart bodies are validated by avatars.upload.ts.
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deleteAvatarRequest, listAvatarsQuery, listAvatarUsersRequest, type GetAvatarResponse } from '@parla/shared/schemas/avatar';
import { avatarIdReference } from '@parla/shared/schemas/avatar-id';
import { regenerateAvatarTokenRequest } from '@parla/shared/schemas/avatar-access';
import type { AppContext } from '../../context';
import { requireUser } from '../../plugins/auth';
import { regenerateAvatarToken } from './avatars.access';
import { defaultCatalogue, type Catalogue } from './avatars.catalogue';
import { publicAvatarView } from './avatars.public';
import * as avatars from './avatars.service';
import { readSaveRequest } from './avatars.upload';
import { storeOwnModelAtlas } from './own-model-atlas.service';

export function avatarRoutes(ctx: AppContext, catalogue: Catalogue = defaultCatalogue()): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/avatar/list', { schema: { querystring: listAvatarsQuery }, config: { auth: 'user' } }, (request) =>
      avatars.listAvatars(ctx, requireUser(request).id, request.query),
    );

    // The whole avatar (masked secrets, configuration, media) for the editor, when a card is selected.
    app.get(
      '/api/avatar/:id',
      { schema: { params: z.object({ id: avatarIdReference }) }, config: { auth: 'user' } },
      async (request): Promise<GetAvatarResponse> => ({
        status: 'OK',
        agent: await avatars.getAvatar(ctx, requireUser(request).id, request.params.id),
      }),
    );

    app.post('/api/avatar_v2/add', { config: { auth: 'user' } }, async (request) => {
      const user = requireUser(request);
      const save = await readSaveRequest(ctx, request, user.id);
      return avatars.saveAvatar(ctx, catalogue, user, save);
    });

    // An uploaded model's viseme atlas, made in the customer's browser (decision 127): multipart.
    app.post(
      '/api/avatar/:id/own_model_atlas',
      { schema: { params: z.object({ id: avatarIdReference }) }, config: { auth: 'user' } },
      (request) => storeOwnModelAtlas(ctx, requireUser(request).id, request.params.id, request),
    );

    app.post('/api/avatar/del', { schema: { body: deleteAvatarRequest }, config: { auth: 'user' } }, (request) =>
      avatars.deleteAvatar(ctx, requireUser(request).id, request.body.agentId),
    );

    app.post('/api/avatar/regenerate_token', { schema: { body: regenerateAvatarTokenRequest }, config: { auth: 'user' } }, (request) =>
      regenerateAvatarToken(ctx, requireUser(request).id, request.body.agentId),
    );

    app.post('/api/list_avatar_users', { schema: { body: listAvatarUsersRequest }, config: { auth: 'user' } }, (request) =>
      avatars.listAvatarUsers(ctx, requireUser(request).id, request.body.agentId),
    );

    app.get(
      '/api/public/avatar/:id',
      {
        schema: { params: z.object({ id: avatarIdReference }), querystring: z.object({ token: z.string().max(500).optional() }).loose() },
        config: { auth: 'none' },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return publicAvatarView(ctx, catalogue, request.params.id, request.query.token);
      },
    );
  };
}
