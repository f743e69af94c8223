// GET /metrics for Prometheus (docs/deploy.md): off (404) unless METRICS_TOKEN is set; then only
// with `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise, the token compared in constant time).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import type { Metrics } from '../../lib/metrics';
import { safeEqual } from '../../lib/tokens';

export function metricsRoutes(ctx: AppContext, metrics: Metrics): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/metrics',
      { config: { auth: 'none' }, schema: { headers: z.object({ authorization: z.string().max(500).optional() }) } },
      async (request, reply) => {
        const token = ctx.config.METRICS_TOKEN;
        if (!token) return reply.callNotFound();
        const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
        if (!given || !safeEqual(given, token)) throw AppError.unauthenticated('A valid metrics token is required.');
        return reply
          .header('content-type', metrics.contentType)
          .header('cache-control', 'no-store')
          .send(await metrics.text());
      },
    );
  };
}
