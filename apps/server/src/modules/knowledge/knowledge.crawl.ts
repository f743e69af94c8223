// The crawler (spec 4 §5, §7, §9): breadth-first over one site from the given page, at most 20
// pages, honouring robots.txt and <meta name="robots">, every page and every discovered link
// checked by the outbound guard. Answers the HTML pages found, each with its url and title.
// Path patterns (picomatch globs over the path): `exclude` pages are neither fetched nor listed
// (the start page is always fetched), only `include` pages are listed (the others are followed).
import picomatch from 'picomatch';
import { CRAWL_PAGE_LIMIT, type CrawledPage } from '@parla/shared/schemas/knowledge';
import type { AppContext } from '../../context';
import { parseHtml } from './knowledge.html';
import { assertPublicTarget, fetchDocument, FetchProblem } from './knowledge.fetch';
import { ALLOW_ALL, CRAWLER_USER_AGENT, DISALLOW_ALL, parseRobots, type Robots } from './knowledge.robots';

/** The whole crawl gives up after this long; the pages found so far are the answer. */
export const CRAWL_DEADLINE_MS = 45_000;
/** Links looked at per crawl (a page of thousands of links must not keep us busy). */
const MAX_LINKS_SEEN = 2000;
const SKIP_EXTENSIONS =
  /\.(?:png|jpe?g|gif|webp|svg|ico|bmp|tiff?|mp[34]|m4a|wav|ogg|webm|mov|avi|zip|gz|tgz|rar|7z|exe|dmg|iso|css|js|mjs|json|xml|rss|atom|woff2?|ttf|eot|pdf|docx?|xlsx?|pptx?)$/i;

/** Hosts are the same site when equal but for a leading "www.". */
function siteKey(url: URL): string {
  return `${url.hostname.toLowerCase().replace(/^www\./, '')}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

function normalize(url: URL): string {
  const u = new URL(url.href);
  u.hash = '';
  return u.href;
}

async function loadRobots(ctx: AppContext, origin: URL): Promise<Robots> {
  try {
    const res = await ctx.outbound.fetch(new URL('/robots.txt', origin), {
      headers: { 'user-agent': CRAWLER_USER_AGENT },
      maxBytes: 512 * 1024,
      timeoutMs: 8000,
    });
    if (res.status >= 200 && res.status < 300) return parseRobots(res.text());
    // RFC 9309: unavailable (4xx) means no rules; unreachable (5xx) means everything disallowed.
    return res.status >= 500 ? DISALLOW_ALL : ALLOW_ALL;
  } catch {
    return DISALLOW_ALL;
  }
}

export interface CrawlPatterns {
  include?: string[];
  exclude?: string[];
}

/** Pages fetched per crawl at most, listed or not (include patterns may skip many). */
const FETCH_FACTOR = 3;

function matcher(patterns: string[] | undefined): ((path: string) => boolean) | null {
  if (!patterns?.length) return null;
  const m = picomatch(patterns, { dot: true, nocase: true });
  return (path) => m(decodeURIComponent(path)) || m(decodeURIComponent(path).replace(/\/$/, '') || '/');
}

export async function crawlSite(
  ctx: AppContext,
  startUrl: string,
  limit = CRAWL_PAGE_LIMIT,
  patterns: CrawlPatterns = {},
): Promise<CrawledPage[]> {
  const max = Math.max(1, Math.min(limit, CRAWL_PAGE_LIMIT));
  const included = matcher(patterns.include);
  const excluded = matcher(patterns.exclude);
  let fetched = 0;
  const start = await assertPublicTarget(ctx, startUrl); // FetchProblem(refused) for private targets
  const site = siteKey(start);
  const robots = await loadRobots(ctx, start);
  const deadline = Date.now() + CRAWL_DEADLINE_MS;

  const queue: URL[] = [start];
  const seen = new Set<string>([normalize(start)]);
  const pages: CrawledPage[] = [];
  const listed = new Set<string>();
  let linksSeen = 0;

  while (queue.length && pages.length < max && fetched < max * FETCH_FACTOR && Date.now() < deadline) {
    const url = queue.shift()!;
    if (!robots.allowed(url.pathname + url.search)) continue;
    if (url !== start && excluded?.(url.pathname)) continue;
    fetched++;
    let doc;
    try {
      doc = await fetchDocument(ctx, url.href, { maxBytes: 5 * 1024 * 1024, timeoutMs: 10_000 });
    } catch (err) {
      if (err instanceof FetchProblem && err.refused && url === start) throw err;
      continue;
    }
    const final = new URL(doc.finalUrl);
    // A redirect off the site ends this branch; a redirect within it counts as the target.
    if (siteKey(final) !== site || doc.kind !== 'html') continue;
    const finalKey = normalize(final);
    seen.add(finalKey);
    const page = parseHtml(doc.body.toString('utf8'), final.href);
    const listable = !excluded?.(final.pathname) && (!included || included(final.pathname));
    if (!page.noindex && listable && !listed.has(finalKey)) {
      listed.add(finalKey);
      pages.push({ url: finalKey, title: page.title || final.pathname || final.host });
    }
    if (page.nofollow) continue;
    for (const href of page.links) {
      if (++linksSeen > MAX_LINKS_SEEN) break;
      let link: URL;
      try {
        link = ctx.outbound.check(href);
      } catch {
        continue; // not http(s), or a private/reserved address: never queued
      }
      if (siteKey(link) !== site || SKIP_EXTENSIONS.test(link.pathname)) continue;
      const key = normalize(link);
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push(new URL(key));
    }
  }
  return pages;
}
