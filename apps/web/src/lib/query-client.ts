import { QueryClient } from '@tanstack/react-query';
import { ErrorCode } from '@parla/shared/errors';
import { ApiError } from './api-client';

/** Client errors do not get better by asking again; a call that already waited the whole 10 s
 *  timeout (spec 1 §7) is said at once rather than asked twice more behind a spinner (issue 17). */
function shouldRetry(count: number, err: unknown): boolean {
  if (err instanceof ApiError && err.status >= 400 && err.status < 500) return false;
  if (err instanceof ApiError && err.code === ErrorCode.RequestFail && err.status === 0) return false;
  return count < 2;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    // 'always': a request is sent (and fails with the spec's network message) even when the
    // browser reports being offline, instead of pausing with a spinner until it is online.
    queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: shouldRetry, networkMode: 'always' },
    mutations: { retry: false, networkMode: 'always' },
  },
});
