// The catalogue of default appearances and environments. Public: the player on customers'
// sites reads it, and it holds nothing private.
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { CATALOGUE_ASSETS, CATALOGUE_FILES_PREFIX, CatalogueService } from './catalogue.service';

/** The lists change only with a deploy; a few minutes of caching is safe. */
const LIST_CACHE = 'public, max-age=300';

export function catalogueRoutes(_ctx: AppContext, service = new CatalogueService(), assetsDir = CATALOGUE_ASSETS): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/catalogue/avatars', { config: { auth: 'none' } }, async (_request, reply) => {
      reply.header('cache-control', LIST_CACHE);
      return service.avatars();
    });

    app.get('/api/catalogue/environments', { config: { auth: 'none' } }, async (_request, reply) => {
      reply.header('cache-control', LIST_CACHE);
      return service.environments();
    });

    await app.register(fastifyStatic, {
      root: assetsDir,
      prefix: CATALOGUE_FILES_PREFIX,
      decorateReply: false,
      immutable: true,
      maxAge: '365d',
      // The index is for the server; only the hashed files are served.
      allowedPath: (path) => !path.endsWith('catalogue.json'),
      setHeaders: (res) => res.header('access-control-allow-origin', '*'),
    });
  };
}
