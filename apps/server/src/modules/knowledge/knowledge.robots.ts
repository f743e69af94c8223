// robots.txt (RFC 9309) read by `robots-parser` (decision 009): the group for our product token,
// else '*'; the longest matching rule wins, Allow on a tie; '*' matches any run of characters and
// '$' anchors the end.
import robotsParser from 'robots-parser';

export const CRAWLER_TOKEN = 'parlabot';
export const CRAWLER_USER_AGENT = 'ParlaBot/1.0 (knowledge base crawler)';

export interface Robots {
  allowed(pathAndQuery: string): boolean;
}

export const ALLOW_ALL: Robots = { allowed: () => true };
export const DISALLOW_ALL: Robots = { allowed: () => false };

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
