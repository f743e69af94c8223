// robots.txt (RFC 9309) read by `robots-parser` (decision 009): the group for our product token,
// else '*'; the longest matching rule wins, Allow on a tie; '*' matches any run of characters and
// '$' anchors the end. The file is the crawled site's bytes: it is parsed and matched in the
// crawl's extraction child, never on the server's event loop (a 500 KB file of wildcard rules
// costs seconds per link; decision 410).
import robotsParser from 'robots-parser';

export const CRAWLER_TOKEN = 'parlabot';
export const CRAWLER_USER_AGENT = 'ParlaBot/1.0 (knowledge base crawler)';

/** What the crawler knows of a site's robots.txt: no rules (missing), nothing allowed
 *  (unreachable), or the file's text. */
export type RobotsRules = { kind: 'all' } | { kind: 'none' } | { kind: 'file'; text: string };

export interface Robots {
  allowed(pathAndQuery: string): boolean;
}

/** Hosts are the same site when equal but for a leading "www.". */
export function siteKey(url: URL): string {
  return `${url.hostname.toLowerCase().replace(/^www\./, '')}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

/** The file's rules for paths of one site (the crawler asks only about its own origin). */
export function parseRobots(text: string): Robots {
  const base = 'http://robots.invalid';
  const robots = robotsParser(`${base}/robots.txt`, text);
  return {
    allowed(pathAndQuery: string): boolean {
      const path = pathAndQuery.startsWith('/') ? pathAndQuery : `/${pathAndQuery}`;
      if (path === '/robots.txt') return true;
      return robots.isAllowed(`${base}${path}`, CRAWLER_TOKEN) !== false;
    },
  };
}

let cached: { text: string; robots: Robots } | null = null;

/** The rules as a matcher (a crawl's child parses its file once, for all its pages). */
export function robotsOf(rules: RobotsRules): Robots {
  if (rules.kind === 'all') return { allowed: () => true };
  if (rules.kind === 'none') return { allowed: () => false };
  if (cached?.text !== rules.text) cached = { text: rules.text, robots: parseRobots(rules.text) };
  return cached.robots;
}

/** The links a page may lead the crawl to: links to other sites are left to the crawler (it
 *  drops them), links within `site` must be allowed by its robots.txt. */
export function linksAllowed(links: string[], site: string, rules: RobotsRules): string[] {
  const robots = robotsOf(rules);
  return links.filter((href) => {
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      return false;
    }
    return siteKey(url) !== site || robots.allowed(url.pathname + url.search);
  });
}
