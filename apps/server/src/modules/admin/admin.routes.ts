// The administrators' customer desk (design/api.md "Administration"); admin role only.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { customersQuery, customerStatusRequest, subscriptionDecisionRequest } from '@parla/shared/schemas/admin';
import { AccountStatus } from '@parla/shared/enums';
import { ErrorCode } from '@parla/shared/errors';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { requireUser } from '../../plugins/auth';
import { decideSubscription, listCustomers, mailStatus, setCustomerStatus } from './admin.service';

const BACKUP_ON_POSTGRES = 'The database is PostgreSQL: back it up with pg_dump (docs/deploy.md, "Backup and restore").';

/** What the desk tells the rest of the server: a suspended account's live conversations end. */
export interface AdminEvents {
  accountSuspended?(userId: string): Promise<unknown>;
}

export function adminRoutes(ctx: AppContext, events: AdminEvents = {}): FastifyPluginAsyncZod {
  return async (app) => {
    // An online backup of the embedded database (npm run backup; docs/deploy.md "Backup and
    // restore"). On PostgreSQL, pg_dump is the tool: this answers 409 saying so.
    app.get('/api/admin/backup', { config: { auth: 'admin' } }, async (_request, reply) => {
      if (!ctx.database.dump) throw new AppError(ErrorCode.InvalidOrMissingParams, 409, [BACKUP_ON_POSTGRES]);
      const tar = Buffer.from(await (await ctx.database.dump()).arrayBuffer());
      // The uploaded files are inside the copy (decision 015); the command reports how many.
      const files = await ctx.files.countStored(ctx.db);
      return reply
        .header('content-type', 'application/x-tar')
        .header('cache-control', 'no-store')
        .header('x-parla-stored-files', String(files))
        .send(tar);
    });

    app.get('/api/admin/customers', { schema: { querystring: customersQuery }, config: { auth: 'admin' } }, (request) =>
      listCustomers(ctx, request.query),
    );

    // Whether mail delivery keeps failing (the Connected VPS screen shows it; decision 012).
    app.get('/api/admin/mail_status', { config: { auth: 'admin' } }, () => mailStatus(ctx));

    app.post(
      '/api/admin/subscription_decision',
      { schema: { body: subscriptionDecisionRequest }, config: { auth: 'admin' } },
      async (request) => {
        await decideSubscription(ctx, requireUser(request), request.body);
        return { status: 'OK' };
      },
    );

    app.post('/api/admin/customer_status', { schema: { body: customerStatusRequest }, config: { auth: 'admin' } }, async (request) => {
      await setCustomerStatus(ctx, requireUser(request), request.body);
      if (request.body.status === AccountStatus.Suspended) await events.accountSuspended?.(request.body.userId);
      return { status: 'OK' };
    });
  };
}
