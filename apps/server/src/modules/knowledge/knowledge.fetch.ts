// Fetching what a user names (URL items, crawled pages) through the one guarded client
// (ctx.outbound): only public addresses, every redirect hop checked, size and time capped.
// Refusals and failures become messages fit for the user.
import type { LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { KNOWLEDGE_FILE_MAX_BYTES } from '@parla/shared/schemas/knowledge';
import type { AppContext } from '../../context';
import { OutboundFailed, OutboundRefused } from '../../lib/outbound';
import { kindOf, type DocumentKind } from './knowledge.extract';
import { CRAWLER_USER_AGENT } from './knowledge.robots';

export const ADDRESS_REFUSED = 'This address cannot be used: it is private, reserved or not a public web address.';

export class FetchProblem extends Error {
  constructor(
    message: string,
    readonly refused = false,
  ) {
    super(message);
    this.name = 'FetchProblem';
  }
}

/**
 * Checks a URL before anything is stored or fetched: scheme, IP literal and host name rules
 * (ctx.outbound.check), then the addresses the name resolves to. The connection checks again
 * when it is made (a name may change its answer). A name that does not resolve at all is left
 * to the fetch, which fails with its own reason.
 */
export async function assertPublicTarget(ctx: AppContext, raw: string): Promise<URL> {
  let url: URL;
  try {
    url = ctx.outbound.check(raw);
  } catch (err) {
    if (err instanceof OutboundRefused) throw new FetchProblem(ADDRESS_REFUSED, true);
    throw err;
  }
  if (ctx.config.OUTBOUND_ALLOW_PRIVATE || ctx.outbound.isAllowListed(url)) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) return url;
  await new Promise<void>((resolve, reject) => {
    ctx.outbound.lookup(host, { all: true }, (err: NodeJS.ErrnoException | null, _addresses?: string | LookupAddress[]) => {
      if (err && (err as { code?: string }).code === 'EREFUSED_PRIVATE') reject(new FetchProblem(ADDRESS_REFUSED, true));
      else resolve();
    });
  });
  return url;
}

export interface FetchedDocument {
  body: Buffer;
  kind: DocumentKind;
  finalUrl: string;
  status: number;
}

/** Fetches one document for ingestion or crawling. */
export async function fetchDocument(
  ctx: AppContext,
  url: string,
  opts: { maxBytes?: number; timeoutMs?: number } = {},
): Promise<FetchedDocument> {
  try {
    const res = await ctx.outbound.fetch(url, {
      method: 'GET',
      headers: {
        'user-agent': CRAWLER_USER_AGENT,
        accept: 'text/html,application/xhtml+xml,text/plain,text/markdown,application/pdf,*/*;q=0.5',
      },
      maxBytes: opts.maxBytes ?? KNOWLEDGE_FILE_MAX_BYTES,
      timeoutMs: opts.timeoutMs ?? 20_000,
    });
    if (res.status < 200 || res.status >= 300) throw new FetchProblem(`The page answered with HTTP status ${res.status}.`);
    const kind = kindOf(res.headers.get('content-type'), new URL(res.url || url).pathname);
    if (!kind)
      throw new FetchProblem(`The page's content type (${res.headers.get('content-type') ?? 'none'}) is not a document that can be read.`);
    return { body: res.body, kind, finalUrl: res.url || url, status: res.status };
  } catch (err) {
    throw toFetchProblem(err);
  }
}

export function toFetchProblem(err: unknown): FetchProblem {
  if (err instanceof FetchProblem) return err;
  if (err instanceof OutboundRefused) return new FetchProblem(ADDRESS_REFUSED, true);
  if (err instanceof OutboundFailed) {
    if (/timed out/.test(err.message)) return new FetchProblem('The page did not answer in time (network timeout).');
    if (/too large/.test(err.message)) return new FetchProblem(`The page is larger than ${KNOWLEDGE_FILE_MAX_BYTES / 1024 / 1024} MB.`);
    if (/redirects/.test(err.message)) return new FetchProblem('The page redirects too many times.');
    return new FetchProblem('The page could not be reached (network error or inaccessible content).');
  }
  return new FetchProblem('The page could not be reached (network error or inaccessible content).');
}
