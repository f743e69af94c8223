// One way to call a provider for a look-up: through the SSRF-guarded client, GET only, no
// redirects (a provider that redirects is not the provider on the allow-list), a short timeout
// and a size cap. Log lines name the provider's origin and path, never the query (Gemini takes
// its key there) or the headers.
import { ErrorCode, type FailReason } from '@parla/shared/errors';
import { LOOKUP_MAX_BYTES, LOOKUP_TIMEOUT_MS } from '@parla/shared/brain-limits';
import { BRAIN_MESSAGES } from '@parla/shared/schemas/brain';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { OutboundRefused } from '../../lib/outbound';

export interface ProviderAnswer {
  status: number;
  /** Parsed JSON, or the text when the body is not JSON. */
  data: unknown;
}

export function providerUnreachable(): AppError {
  return new AppError(ErrorCode.RequestFail, 502, [BRAIN_MESSAGES.proxyFailed], { failReason: 'PROVIDER_UNREACHABLE' });
}

export function notAllowed(): AppError {
  return AppError.invalid(BRAIN_MESSAGES.proxyNotAllowed, 'PROXY_NOT_ALLOWED');
}

/** A look-up the provider refused (bad key, unknown id): the caller's message, 400. */
export function providerRejected(message: string, failReason: FailReason = 'PROVIDER_REJECTED'): AppError {
  return new AppError(ErrorCode.RequestFail, 400, [message], { failReason });
}

function where(url: string): string {
  const q = url.search(/[?#]/);
  return q < 0 ? url : url.slice(0, q);
}

/** `refused` makes the error for an address the guard refuses (default: not on the allow-list). */
export async function callProvider(
  ctx: AppContext,
  url: string,
  headers: Record<string, string> = {},
  refused: (reason: string) => AppError = () => notAllowed(),
): Promise<ProviderAnswer> {
  let res;
  try {
    res = await ctx.outbound.fetch(url, {
      method: 'GET',
      headers: { accept: 'application/json', ...headers },
      timeoutMs: LOOKUP_TIMEOUT_MS,
      maxBytes: LOOKUP_MAX_BYTES,
      maxRedirects: 0,
    });
  } catch (err) {
    if (err instanceof OutboundRefused) {
      ctx.log.warn({ provider: where(url), reason: err.reason }, 'provider look-up refused');
      throw refused(err.reason);
    }
    ctx.log.warn({ provider: where(url), reason: err instanceof Error ? err.message : 'failed' }, 'provider look-up failed');
    throw providerUnreachable();
  }
  const text = res.text();
  let data: unknown = text;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: the text is the answer
  }
  ctx.log.debug({ provider: where(url), status: res.status }, 'provider look-up');
  return { status: res.status, data };
}

export const isOk = (a: ProviderAnswer) => a.status >= 200 && a.status < 300;
export const isAuthFailure = (a: ProviderAnswer) => a.status === 401 || a.status === 403;
