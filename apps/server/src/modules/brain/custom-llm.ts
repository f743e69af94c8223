// A custom OpenAI-compatible base URL (docs/decisions/302-custom-llm-base-url.md): the shape is
// the shared rule; reaching it is the outbound guard's: never a private, loopback, link-local or
// metadata address (unless OUTBOUND_ALLOW names that host:port), and https unless the host:port
// is allow-listed. Checked on save and before each model look-up; the look-up and the runtime
// then connect through the same guard (which also refuses names resolving to private addresses).
import { CUSTOM_LLM_MESSAGES as M, customBaseUrlIssue, normaliseCustomBaseUrl } from '@parla/shared/schemas/custom-llm';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { OutboundRefused } from '../../lib/outbound';

export const BASE_URL_REFUSED = 'BASE_URL_REFUSED';

/** The message that refuses this base URL, or null when the server may call it. */
export function customBaseUrlProblem(ctx: Pick<AppContext, 'outbound'>, raw: string): string | null {
  const shape = customBaseUrlIssue(raw);
  if (shape) return shape;
  let url: URL;
  try {
    url = ctx.outbound.check(normaliseCustomBaseUrl(raw));
  } catch (err) {
    if (err instanceof OutboundRefused) return `${M.refused}: ${err.reason}.`;
    throw err;
  }
  if (url.protocol === 'http:' && !ctx.outbound.isAllowListed(url)) return M.httpsRequired;
  return null;
}

/** The normalised base URL; throws 400 BASE_URL_REFUSED with the message. */
export function checkedCustomBaseUrl(ctx: Pick<AppContext, 'outbound'>, raw: string): string {
  const problem = customBaseUrlProblem(ctx, raw);
  if (problem) throw AppError.invalid(problem, BASE_URL_REFUSED);
  return normaliseCustomBaseUrl(raw);
}
