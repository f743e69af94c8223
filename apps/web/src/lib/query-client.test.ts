// Issue 17, item 8: a call that times out (10 s, spec 1 §7) is said at once, not asked again
// twice more behind a spinner; and no call waits for the browser to report being online.
import { describe, expect, it } from 'vitest';
import { ErrorCode, ERROR_MESSAGES } from '@parla/shared/errors';
import { ApiError } from './api-client';
import { queryClient } from './query-client';

const retry = queryClient.getDefaultOptions().queries!.retry as (count: number, err: unknown) => boolean;

describe('the query client', () => {
  it('does not retry a request that timed out', () => {
    expect(retry(0, new ApiError(ErrorCode.RequestFail, 0, [ERROR_MESSAGES[ErrorCode.RequestFail]]))).toBe(false);
  });

  it('retries a dropped connection or a server error at most twice, and never a client error', () => {
    const network = new ApiError(ErrorCode.NetworkError, 0, ['x']);
    expect([0, 1, 2].map((n) => retry(n, network))).toEqual([true, true, false]);
    expect(retry(0, new ApiError(ErrorCode.ServerError, 503, ['x']))).toBe(true);
    expect(retry(0, new ApiError(ErrorCode.InvalidOrMissingParams, 400, ['x']))).toBe(false);
  });

  it('sends every request even when the browser says it is offline, so a failure is shown instead of a paused spinner', () => {
    expect(queryClient.getDefaultOptions().queries!.networkMode).toBe('always');
    expect(queryClient.getDefaultOptions().mutations!.networkMode).toBe('always');
  });
});
