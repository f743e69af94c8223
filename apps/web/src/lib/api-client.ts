// The one HTTP client of the portal: same origin, JSON, 10 s timeout, the application key and
// the session token in Authorization, every failure turned into an ApiError. A 401 on any call
// signs the user out and clears the data cache (spec 1 §4, §7).
import { ErrorCode, ERROR_MESSAGES, errorMessage, gatewayUnreachableMessage, isErrorBody } from '@parla/shared/errors';
import { REQUEST_TIMEOUT_MS } from '@parla/shared/limits';
import { authStore } from './auth-session';
import { logger } from './logger';

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly status: number,
    readonly errors: string[],
    readonly failReason?: string,
    readonly body?: unknown,
  ) {
    super(errors.join(', ') || errorMessage(code));
    this.name = 'ApiError';
  }
}

let appKey = '';
let onUnauthorized: () => void = () => {};

export function configureApiClient(opts: { appKey: string; onUnauthorized: () => void }): void {
  appKey = opts.appKey;
  onUnauthorized = opts.onUnauthorized;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** multipart uploads */
  form?: FormData;
  /** 'app': the application key only (public calls); 'user': with the session token. */
  auth?: 'app' | 'user' | { bearer: string };
  signal?: AbortSignal;
  timeoutMs?: number;
  /** The answer's bytes (audio, files) instead of JSON; errors are read as usual. */
  blob?: boolean;
}

function authorization(auth: RequestOptions['auth']): string {
  if (auth && typeof auth === 'object') return `Bearer ${auth.bearer}`;
  const token = auth === 'app' ? null : authStore.get()?.authToken;
  return token ? `Bearer ${appKey} ${token}` : `Bearer ${appKey}`;
}

export async function apiRequest<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const headers: Record<string, string> = { authorization: authorization(opts.auth) };
  let body: BodyInit | undefined;
  if (opts.form) body = opts.form;
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }

  let res: Response;
  try {
    res = await fetch(path, { method: opts.method ?? (body ? 'POST' : 'GET'), headers, body, signal });
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    const timedOut = timeout.aborted;
    logger.warn('request failed', path, err);
    throw new ApiError(timedOut ? ErrorCode.RequestFail : ErrorCode.NetworkError, 0, [
      timedOut ? ERROR_MESSAGES[ErrorCode.RequestFail] : ERROR_MESSAGES[ErrorCode.NetworkError],
    ]);
  }

  if (opts.blob && res.ok) return (await res.blob()) as T;
  const text = await res.text();
  let data: unknown = undefined;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }

  if (res.ok) return data as T;

  if (res.status === 401 && opts.auth !== 'app' && typeof opts.auth !== 'object') onUnauthorized();
  if (isErrorBody(data)) {
    if (res.status >= 500) logger.error('server error', path, res.status, data.errors);
    throw new ApiError(data.code, res.status, data.errors, data.failReason, data);
  }
  if (res.status === 502 || res.status === 503 || res.status === 504 || data === undefined) {
    logger.error('gateway error', path, res.status);
    throw new ApiError(ErrorCode.NetworkError, res.status, [gatewayUnreachableMessage(res.status, res.statusText || 'Error')]);
  }
  const code = res.status >= 500 ? ErrorCode.ServerError : ErrorCode.Unknown;
  throw new ApiError(code, res.status, [errorMessage(code)], undefined, data);
}

/** A file the server makes (an export): its bytes, with the session's authorisation; errors as apiRequest's. */
export async function apiDownload(path: string, timeoutMs = 120_000): Promise<Blob> {
  const res = await fetch(path, { headers: { authorization: authorization('user') }, signal: AbortSignal.timeout(timeoutMs) });
  if (res.ok) return res.blob();
  return apiRequest(path, { timeoutMs });
}

/** The messages to show for an error: the server's list, or the code's message. */
export function errorLines(err: unknown): string[] {
  if (err instanceof ApiError) return err.errors.length ? err.errors : [errorMessage(err.code)];
  return [ERROR_MESSAGES[ErrorCode.FallbackError]];
}
