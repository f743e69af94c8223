// "Allowed websites" of an avatar (EMBED tab; beyond the spec, docs/decisions/205-allowed-websites.md):
// the origins whose pages may open conversations with it. An origin is scheme, host and port,
// written the way browsers send it in the Origin header (lower case, no default port, no path).
// An empty list lets any site open conversations; the portal's own pages always may.
import { z } from 'zod';

export const ALLOWED_ORIGINS_MAX = 20;
const ORIGIN_MAX_CHARS = 300;

export const ALLOWED_ORIGINS_MESSAGES = {
  invalid: 'Enter a website as its address without a path, such as https://example.com or http://localhost:3000.',
  tooMany: `At most ${ALLOWED_ORIGINS_MAX} websites can be listed.`,
  duplicate: 'This website is already in the list.',
} as const;

// scheme :// host (name, IPv4 or [IPv6]) [:port] [/]
const ORIGIN = /^(https?):\/\/([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::(\d{1,5}))?\/?$/i;

/** The origin as a browser sends it, or null when the text is not an origin. */
export function normaliseOrigin(raw: string | null | undefined): string | null {
  const v = (raw ?? '').trim();
  if (v.length > ORIGIN_MAX_CHARS) return null;
  const m = ORIGIN.exec(v);
  if (!m) return null;
  const scheme = m[1]!.toLowerCase();
  const port = m[3];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return null;
  const defaultPort = (scheme === 'https' && Number(port) === 443) || (scheme === 'http' && Number(port) === 80);
  return `${scheme}://${m[2]!.toLowerCase()}${port !== undefined && !defaultPort ? `:${Number(port)}` : ''}`;
}

/** One website of the list: checked and normalised. */
export const allowedOrigin = z
  .string({ error: ALLOWED_ORIGINS_MESSAGES.invalid })
  .max(ORIGIN_MAX_CHARS, ALLOWED_ORIGINS_MESSAGES.invalid)
  .transform((v, ctx) => {
    const o = normaliseOrigin(v);
    if (o === null) {
      ctx.addIssue({ code: 'custom', message: ALLOWED_ORIGINS_MESSAGES.invalid });
      return z.NEVER;
    }
    return o;
  });

/** The whole list as saved: normalised, without repeats, at most ALLOWED_ORIGINS_MAX. */
export const allowedOrigins = z
  .array(allowedOrigin, { error: ALLOWED_ORIGINS_MESSAGES.invalid })
  .max(ALLOWED_ORIGINS_MAX, ALLOWED_ORIGINS_MESSAGES.tooMany)
  .transform((list) => [...new Set(list)]);

/**
 * Whether a page of `origin` may open a conversation: any page when the list is empty, the
 * portal's own origins always, otherwise only a listed one (exact match, after normalising).
 */
export function originAllowed(list: readonly string[], origin: string | null | undefined, ownOrigins: readonly string[]): boolean {
  if (list.length === 0) return true;
  const o = normaliseOrigin(origin);
  if (o === null) return false;
  return ownOrigins.some((own) => normaliseOrigin(own) === o) || list.includes(o);
}
