// The editor's Try it and a function's call log (docs/decisions/415-function-try-and-call-log.md).
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import type { FunctionCallRecord, TryFunctionRequest, TryFunctionResponse } from '@parla/shared/schemas/functions';
import { apiRequest } from '../../../lib/api-client';

const TRY_TIMEOUT_MS = 90_000;
import { pagedQueryOptions, pageQueryString } from '../../../lib/paged-query';

export function tryFunction(input: TryFunctionRequest): Promise<TryFunctionResponse> {
  // Not the portal's 10 s: a try may wait for a free process (SANDBOX_QUEUE_WAIT_MS), for one to
  // start (the sandbox's start limit) and then run for the wall clock.
  return apiRequest('/api/functions/try', { body: input, timeoutMs: TRY_TIMEOUT_MS });
}

export function useTryFunction() {
  return useMutation({ mutationFn: tryFunction });
}

export function getFunctionCalls(id: string, offset = 0): Promise<{ calls: FunctionCallRecord[]; nextOffset: number | null }> {
  return apiRequest(`/api/functions/${encodeURIComponent(id)}/calls?${pageQueryString(offset)}`);
}

export function useFunctionCalls(id: string) {
  return useInfiniteQuery(
    pagedQueryOptions(
      ['functions', id, 'calls'],
      (offset) => getFunctionCalls(id, offset),
      (a) => a.calls,
      (c) => `${c.at}|${c.avatarId ?? ''}|${c.durationMs}|${c.excerpt}`,
    ),
  );
}
