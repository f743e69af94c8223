// Retries of requests that are safe to repeat (decision 010): p-retry's bounded attempts and
// exponential backoff with jitter. Only a transient failure is tried again — a 429 or 5xx answer,
// an SMTP 4xx reply, a connection failure or timeout; any other failure (a 4xx answer, a refusal
// of the outbound guard, a bad answer) ends at once. A 429/503's Retry-After is waited for (when
// it asks for more than `maxRetryAfterMs`, we give up instead). An abort signal (the
// conversation ended, the engine closed) stops the waiting and the attempts.
import pRetry from 'p-retry';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** The first backoff; each next one doubles, times a random factor in [1, 2). */
  baseMs: number;
  /** The longest Retry-After we wait for. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseMs: 400, maxRetryAfterMs: 20_000 };

/** A failure worth another attempt. */
export class TransientFailure extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'TransientFailure';
  }
}

/** The attempts ran out (or the provider asked for a longer wait than we give it). */
export class RetriesExhausted extends Error {
  constructor(what: string, attempts: number, last: Error) {
    super(`${what} failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${last.message}`);
    this.name = 'RetriesExhausted';
  }
}

/** Retry-After in milliseconds: delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const v = header.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Runs `attempt` until it succeeds, fails for good, or the attempts run out. */
export async function retrying<T>(what: string, policy: RetryPolicy, attempt: (n: number) => Promise<T>, signal?: AbortSignal): Promise<T> {
  let tries = 0;
  try {
    return await pRetry(
      async (n) => {
        tries = n;
        return attempt(n);
      },
      {
        retries: Math.max(0, policy.attempts - 1),
        minTimeout: policy.baseMs,
        maxTimeout: policy.baseMs * 16,
        factor: 2,
        randomize: true,
        ...(signal ? { signal } : {}),
        shouldRetry: ({ error }) => error instanceof TransientFailure && (error.retryAfterMs ?? 0) <= policy.maxRetryAfterMs,
        onFailedAttempt: async ({ error, retriesLeft }) => {
          const after = error instanceof TransientFailure ? error.retryAfterMs : undefined;
          if (retriesLeft > 0 && after !== undefined && after <= policy.maxRetryAfterMs) await wait(after, signal);
        },
      },
    );
  } catch (err) {
    if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error(`${what} aborted`);
    if (err instanceof TransientFailure) throw new RetriesExhausted(what, tries, err);
    throw err;
  }
}
