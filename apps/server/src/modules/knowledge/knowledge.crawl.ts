// The crawler (spec 4 §5, §7, §9): breadth-first over one site from the given page, at most 20
// pages, honouring robots.txt and <meta name="robots">, every page and every discovered link
// checked by the outbound guard. Answers the HTML pages found, each with its url and title.
// Path patterns (globs over the path, knowledge.crawl-patterns.ts): `exclude` pages are neither
// fetched nor listed (the start page is always fetched), only `include` pages are listed (the
// others are followed).
// Pages are read in an extraction child of the crawl's own (decision 410): a page is hostile
// bytes, and parsing it on the event loop let one deep page stop every tenant (issue 33). A page
// the child cannot read is skipped; the start page's failure is the crawl's answer.
import { CRAWL_PAGE_LIMIT, type CrawledPage } from '@parla/shared/schemas/knowledge';
import type { AppContext } from '../../context';
import type { PageFacts } from './knowledge.extract-child';
import { ExtractCrash, ExtractSession, type ExtractLimits } from './knowledge.extract-runner';
import { ExtractError } from './knowledge.extract-error';
import { pathMatcher, PATTERN_PATH_MAX_CHARS } from './knowledge.crawl-patterns';
import { assertPublicTarget, fetchDocument, FetchProblem } from './knowledge.fetch';
import { CRAWLER_USER_AGENT, siteKey, type RobotsRules } from './knowledge.robots';

/** The whole crawl gives up after this long; the pages found so far are the answer. */
export const CRAWL_DEADLINE_MS = 45_000;
/** Links looked at per crawl (a page of thousands of links must not keep us busy). */
const MAX_LINKS_SEEN = 2000;
const SKIP_EXTENSIONS =
  /\.(?:png|jpe?g|gif|webp|svg|ico|bmp|tiff?|mp[34]|m4a|wav|ogg|webm|mov|avi|zip|gz|tgz|rar|7z|exe|dmg|iso|css|js|mjs|json|xml|rss|atom|woff2?|ttf|eot|pdf|docx?|xlsx?|pptx?)$/i;

function normalize(url: URL): string {
  const u = new URL(url.href);
  u.hash = '';
  return u.href;
}

async function loadRobots(ctx: AppContext, origin: URL): Promise<RobotsRules> {
  try {
    const res = await ctx.outbound.fetch(new URL('/robots.txt', origin), {
      headers: { 'user-agent': CRAWLER_USER_AGENT },
      maxBytes: 512 * 1024,
      timeoutMs: 8000,
    });
    if (res.status >= 200 && res.status < 300) return { kind: 'file', text: res.text() };
    // RFC 9309: unavailable (4xx) means no rules; unreachable (5xx) means everything disallowed.
    return res.status >= 500 ? { kind: 'none' } : { kind: 'all' };
  } catch {
    return { kind: 'none' };
  }
}

export interface CrawlPatterns {
  include?: string[];
  exclude?: string[];
}

/** Pages fetched per crawl at most, listed or not (include patterns may skip many). */
const FETCH_FACTOR = 3;

/** A crawled page's reading (the child's time, heap and memory). A page is read in well under a
 *  second; the crawl as a whole has CRAWL_DEADLINE_MS. */
export const CRAWL_PAGE_LIMITS: ExtractLimits = { timeMs: 10_000, heapMb: 256, rssMb: 640 };
export const PAGE_TOO_HEAVY = 'The page needs too much time or memory to read and was stopped.';
export const PAGE_UNREADABLE = 'The page could not be read.';
export const startPageUnreadable = (reason: string) => `The start page could not be read. ${reason}`;

/** Reads one fetched page in the crawl's child, its links those the site's robots.txt allows; a
 *  reason fit for the user when it cannot. */
async function readPage(
  reader: ExtractSession,
  body: Buffer,
  url: string,
  robots: RobotsRules,
  site: string,
): Promise<PageFacts | { failed: string }> {
  try {
    const answer = await reader.run({ kind: 'html', data: new Uint8Array(body), baseUrl: url, crawl: true, robots, site });
    return 'page' in answer ? answer.page : { failed: PAGE_UNREADABLE };
  } catch (err) {
    if (err instanceof ExtractCrash) return { failed: PAGE_TOO_HEAVY };
    if (err instanceof ExtractError) return { failed: err.message };
    throw err;
  }
}

/** Whether robots.txt lets the crawl start at `url` (asked in the child: the file is the site's bytes). */
async function startAllowed(reader: ExtractSession, robots: RobotsRules, url: URL): Promise<boolean> {
  if (robots.kind !== 'file') return robots.kind === 'all';
  try {
    const answer = await reader.run({ kind: 'html', robots, paths: [url.pathname + url.search] });
    return 'allowed' in answer && answer.allowed[0] === true;
  } catch (err) {
    if (err instanceof ExtractCrash || err instanceof ExtractError) return false;
    throw err;
  }
}

export async function crawlSite(
  ctx: AppContext,
  startUrl: string,
  limit = CRAWL_PAGE_LIMIT,
  patterns: CrawlPatterns = {},
  opts: { pageLimits?: ExtractLimits } = {},
): Promise<CrawledPage[]> {
  const reader = new ExtractSession(opts.pageLimits ?? CRAWL_PAGE_LIMITS);
  try {
    return await crawlWith(ctx, reader, startUrl, limit, patterns);
  } finally {
    reader.close();
  }
}

async function crawlWith(
  ctx: AppContext,
  reader: ExtractSession,
  startUrl: string,
  limit: number,
  patterns: CrawlPatterns,
): Promise<CrawledPage[]> {
  const max = Math.max(1, Math.min(limit, CRAWL_PAGE_LIMIT));
  const included = pathMatcher(patterns.include);
  const excluded = pathMatcher(patterns.exclude);
  let fetched = 0;
  const start = await assertPublicTarget(ctx, startUrl); // FetchProblem(refused) for private targets
  reader.warm(); // boots while robots.txt and the start page are fetched
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
    // Links arrive allowed by robots.txt (the page's child checked them); the start page is asked.
    if (url === start && !(await startAllowed(reader, robots, url))) continue;
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
    if (siteKey(final) !== site || doc.kind !== 'html' || final.pathname.length > PATTERN_PATH_MAX_CHARS) continue;
    const finalKey = normalize(final);
    seen.add(finalKey);
    const page = await readPage(reader, doc.body, final.href, robots, site);
    if ('failed' in page) {
      if (url === start) throw new FetchProblem(startPageUnreadable(page.failed));
      ctx.log.info({ url: finalKey, reason: page.failed }, 'crawl: page skipped');
      continue;
    }
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
