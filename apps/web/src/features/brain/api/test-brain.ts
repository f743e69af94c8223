// POST /api/brain/test: the Brain tab's Test (issue 39 item 3).
import type { BrainTestRequest, BrainTestResponse } from '@parla/shared/schemas/brain-test';
import { BRAIN_TEST_TIMEOUT_MS } from '@parla/shared/schemas/brain-test';
import { apiRequest } from '../../../lib/api-client';

export function testBrain(body: BrainTestRequest): Promise<BrainTestResponse> {
  // The server gives up after BRAIN_TEST_TIMEOUT_MS and says so: wait a little longer than it.
  return apiRequest<BrainTestResponse>('/api/brain/test', { body, timeoutMs: BRAIN_TEST_TIMEOUT_MS + 10_000 });
}
