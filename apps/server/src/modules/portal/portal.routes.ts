// Health and the public portal settings (no application key needed for either).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PRODUCT_NAME } from '@parla/shared/enums';
import { SKIP_HOME_DEFAULT } from '@parla/shared/limits';
import type { PortalSettings } from '@parla/shared/schemas/auth';
import type { AppContext } from '../../context';
import { ping } from './portal.repository';

export function portalRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/health', { config: { auth: 'none' } }, async (_request, reply) => {
      try {
        await ping(ctx.db);
        // A full disk is reported, not failed: reads and conversations still work (decision 013).
        return { status: 'OK', db: 'ok', disk: ctx.disk.status().state };
      } catch (err) {
        ctx.log.warn({ err }, 'health check: database unavailable');
        return reply.status(503).send({ status: 'ERROR', code: 2, errors: ['The database is unavailable.'], db: 'down' });
      }
    });

    app.get('/api/portal_settings', { config: { auth: 'none' } }, async (): Promise<PortalSettings> => ({
      allowRegistration: ctx.config.ALLOW_REGISTRATION,
      skipHome: SKIP_HOME_DEFAULT,
      docsUrl: ctx.config.DOCS_URL,
      productName: PRODUCT_NAME,
      appKey: ctx.config.APP_KEY,
      publicUrl: ctx.config.PUBLIC_URL,
    }));
  };
}
