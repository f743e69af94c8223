// Account info, the billing report and plan change requests (spec 1 §7).
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountUpgradeRequest, cancelPlanRequest as cancelPlanRequestBody } from '@parla/shared/schemas/account';
import { accountStatsQuery } from '@parla/shared/schemas/billing';
import type { AppContext } from '../../context';
import { requireUser } from '../../plugins/auth';
import { accountInfo, cancelPlanRequest, requestPlanChange } from './account.service';
import { exportAccount } from './account-export.service';
import { accountStats } from './billing.service';

export function accountRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/account_info', { config: { auth: 'user' } }, (request) => accountInfo(ctx, requireUser(request)));

    app.get('/api/account_stats', { schema: { querystring: accountStatsQuery }, config: { auth: 'user' } }, (request) =>
      accountStats(ctx, requireUser(request).id, request.query),
    );

    // Beyond the spec (issue 13): the customer's own data as JSON, streamed (decision 625).
    app.get('/api/account/export', { config: { auth: 'user' } }, async (request, reply) => {
      const user = requireUser(request);
      const now = ctx.now();
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="parla-account-${now.toISOString().slice(0, 10)}.json"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(exportAccount(ctx.db, user.id, now)));
    });

    app.post('/api/account_upgrade', { schema: { body: accountUpgradeRequest }, config: { auth: 'user' } }, async (request) => {
      await requestPlanChange(ctx, requireUser(request), request.body);
      return { status: 'OK' };
    });

    // Beyond the spec (issue 17): a customer withdraws their own pending request.
    app.post('/api/account_upgrade/cancel', { schema: { body: cancelPlanRequestBody }, config: { auth: 'user' } }, async (request) => {
      await cancelPlanRequest(ctx, requireUser(request));
      return { status: 'OK' };
    });
  };
}
