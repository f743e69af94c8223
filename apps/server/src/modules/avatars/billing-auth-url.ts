// The billing authorisation URL (billingAuthURL, issue 13 item 7): the runtime calls it through
// the outbound guard, so a URL the guard would refuse (a private, loopback, link-local or
// metadata address, a scheme other than http(s)) is refused when the avatar is saved, with the
// reason, instead of failing every conversation later. Empty clears it.
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { OutboundRefused } from '../../lib/outbound';

export const BILLING_URL_INVALID = 'Billing Authorization URL: Not a valid URL';
export const BILLING_URL_REFUSED = 'Billing Authorization URL: the server may not call this address';

/** The URL to store (trimmed; null when emptied; undefined when not given); throws 400 with the reason. */
export function checkedBillingAuthUrl(ctx: Pick<AppContext, 'outbound'>, raw: string | null | undefined): string | null | undefined {
  if (raw === undefined) return undefined;
  const v = (raw ?? '').trim();
  if (!v) return null;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw AppError.invalid(BILLING_URL_INVALID);
  }
  try {
    ctx.outbound.check(url);
  } catch (err) {
    if (err instanceof OutboundRefused) throw AppError.invalid(`${BILLING_URL_REFUSED} (${err.reason}).`);
    throw err;
  }
  return v;
}
