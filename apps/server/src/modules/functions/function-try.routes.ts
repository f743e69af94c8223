// POST /api/functions/try and GET /api/functions/:id/calls (docs/decisions/415-function-try-and-call-log.md).
// Registered after the runtime, whose sandbox Try uses: the same processes and caps as live calls.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '@parla/shared/schemas/knowledge';
import { tryFunctionRequest } from '@parla/shared/schemas/functions';
import { pageQuery } from '@parla/shared/schemas/paging';
import type { AppContext } from '../../context';
import { requireUser } from '../../plugins/auth';
import type { Sandbox } from '../../runtime/sandbox/sandbox';
import { listCalls } from './function-calls';
import { tryFunction } from './function-try';

/** Each try holds a sandbox process (~190 MB) for up to the wall-clock limit: a person clicking
 *  Run stays far below; a script cannot keep the server's processes busy for itself. */
const TRY_RATE = { rateLimit: { max: 20, timeWindow: 60_000 } };

export function functionTryRoutes(ctx: AppContext, sandbox: Sandbox): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/functions/try',
      { schema: { body: tryFunctionRequest }, config: { auth: 'user', ...TRY_RATE }, bodyLimit: 256 * 1024 },
      (request) => tryFunction(ctx, sandbox, requireUser(request).id, request.body),
    );

    app.get('/api/functions/:id/calls', { schema: { params: idParams, querystring: pageQuery }, config: { auth: 'user' } }, (request) =>
      listCalls(ctx, requireUser(request).id, request.params.id, request.query),
    );
  };
}
