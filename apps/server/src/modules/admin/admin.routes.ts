// The administrators' customer desk (design/api.md "Administration"); admin role only.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { customersQuery, customerStatusRequest, subscriptionDecisionRequest } from '@parla/shared/schemas/admin';
import { AccountStatus } from '@parla/shared/enums';
import type { AppContext } from '../../context';
import { requireUser } from '../../plugins/auth';
import { decideSubscription, listCustomers, mailStatus, setCustomerStatus } from './admin.service';

/** What the desk tells the rest of the server: a suspended account's live conversations end. */
export interface AdminEvents {
  accountSuspended?(userId: string): Promise<unknown>;
}

export function adminRoutes(ctx: AppContext, events: AdminEvents = {}): FastifyPluginAsyncZod {
  return async (app) => {
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
