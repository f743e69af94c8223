// POST /api/brain/test (docs/api.md "Brain look-ups"): the Brain tab's Test. Registered after the
// runtime, whose engine services (the guarded client, the embedded voice) the test uses.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { brainTestRequest } from '@parla/shared/schemas/brain-test';
import type { AppContext } from '../../context';
import { requireUser } from '../../plugins/auth';
import type { EngineDeps } from '../../runtime/types';
import { testBrain } from './brain-test';

/** A test is a real request to a third party (and may speak): a person clicking Test stays far below. */
const TEST_RATE = { rateLimit: { max: 20, timeWindow: 60_000 } };

export function brainTestRoutes(ctx: AppContext, deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/api/brain/test', { schema: { body: brainTestRequest }, config: { auth: 'user', ...TEST_RATE } }, (request) =>
      testBrain(ctx, deps, requireUser(request), request.body),
    );
  };
}
