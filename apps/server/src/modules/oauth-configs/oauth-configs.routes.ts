// OAuth configs of the signed-in customer (spec 1 §7). The end-user sign-in flow that uses them
// returns to {PUBLIC_URL}/api/oauth/callback/{appId}, served by the conversation runtime.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deleteOauthAppRequest, saveOauthAppRequest } from '@parla/shared/schemas/oauth';
import type { AppContext } from '../../context';
import { requireUser } from '../../plugins/auth';
import { deleteApp, listApps, saveApp } from './oauth-configs.service';

export function oauthConfigRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/list_oauthapp', { config: { auth: 'user' } }, (request) => listApps(ctx, requireUser(request).id));

    app.post('/api/add_oauthapp', { schema: { body: saveOauthAppRequest }, config: { auth: 'user' } }, (request) =>
      saveApp(ctx, requireUser(request).id, request.body),
    );

    app.post('/api/del_oauthapp', { schema: { body: deleteOauthAppRequest }, config: { auth: 'user' } }, (request) =>
      deleteApp(ctx, requireUser(request).id, request.body.appId),
    );
  };
}
