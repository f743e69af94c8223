// Functions (spec 4 §7), the Brain tab's approved list (spec 3 §7) and the administrators'
// review (design/api.md "Administration").
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '@parla/shared/schemas/knowledge';
import { functionDecisionRequest, saveFunctionsRequest } from '@parla/shared/schemas/functions';
import { pageQuery } from '@parla/shared/schemas/paging';
import type { AppContext } from '../../context';
import { requireUser } from '../../plugins/auth';
import * as functions from './functions.service';

export function functionRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/functions', { schema: { querystring: pageQuery }, config: { auth: 'user' } }, (request) =>
      functions.listFunctions(ctx, requireUser(request).id, request.query),
    );

    app.post(
      '/api/functions',
      { schema: { body: saveFunctionsRequest }, config: { auth: 'user' }, bodyLimit: 2 * 1024 * 1024 },
      (request) => functions.saveFunctions(ctx, requireUser(request), request.body),
    );

    app.get('/api/realtime_functions', { config: { auth: 'user' } }, (request) =>
      functions.listApprovedFunctions(ctx, requireUser(request).id),
    );

    app.get('/api/admin/functions', { schema: { querystring: pageQuery }, config: { auth: 'admin' } }, (request) =>
      functions.listForReview(ctx, request.query),
    );

    app.get('/api/admin/functions/:id/history', { schema: { params: idParams }, config: { auth: 'admin' } }, (request) =>
      functions.reviewHistory(ctx, request.params.id),
    );

    app.post('/api/admin/function_decision', { schema: { body: functionDecisionRequest }, config: { auth: 'admin' } }, (request) =>
      functions.decide(ctx, requireUser(request), request.body),
    );
  };
}
