// The administrators' customer desk (design/api.md "Administration"); admin role only.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { customersQuery, customerStatusRequest, subscriptionDecisionRequest } from '@parla/shared/schemas/admin';
import type { AppContext } from '../../context';
import { requireUser } from '../../plugins/auth';
import { decideSubscription, listCustomers, setCustomerStatus } from './admin.service';

export function adminRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/admin/customers', { schema: { querystring: customersQuery }, config: { auth: 'admin' } }, (request) =>
      listCustomers(ctx, request.query.search),
    );

    app.post('/api/admin/subscription_decision', { schema: { body: subscriptionDecisionRequest }, config: { auth: 'admin' } }, async (request) => {
      await decideSubscription(ctx, requireUser(request), request.body);
      return { status: 'OK' };
    });

    app.post('/api/admin/customer_status', { schema: { body: customerStatusRequest }, config: { auth: 'admin' } }, async (request) => {
      await setCustomerStatus(ctx, requireUser(request), request.body);
      return { status: 'OK' };
    });
  };
}
