// A hostile website on loopback for the crawl attack test (issue 33): a home page linking to an
// honest page and to a page of 400,000 nested <div> (4.4 MB, under the page limit), and a start
// page linking to pages whose paths are long runs of one letter (the worst case of a
// backtracking glob matcher). With `robots`, it serves that robots.txt (hostileRobots(): 500 KB
// of wildcard rules, seconds of matching per long link). Everything is made in the test; nothing
// is shipped.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const DEEP_LEVELS = 400_000;
/** Paths of this many letters `a` (a backtracking matcher of `/*a*a*a*a*b` never returns). */
export const LONG_PATH_CHARS = 1500;
export const LONG_PATHS = 30;

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main>${body}</main></body></html>`;

/** `levels` nested <div>, the text in the innermost. */
export function deepPage(levels: number): string {
  return `<!doctype html><html><head><title>Deep</title></head><body>${'<div>'.repeat(levels)}Hidden text${'</div>'.repeat(levels)}</body></html>`;
}

export const longPath = (i: number) => `/${'a'.repeat(LONG_PATH_CHARS + i)}`;

/** A robots.txt just under the 512 KB the crawler reads, of rules that cost a matcher about
 *  rule × path steps each: about 13,000 of them, seconds for each long path. */
export function hostileRobots(): string {
  const rule = 'Disallow: /*a*a*a*a*a*a*a*a*a*a*a*a*b\n';
  let text = 'User-agent: *\nAllow: /about\n';
  while (text.length + rule.length < 500 * 1024) text += rule;
  return text;
}

export interface HostileSite {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

export async function startHostileSite(robots?: string): Promise<HostileSite> {
  const deep = deepPage(DEEP_LEVELS);
  const long = Array.from({ length: LONG_PATHS }, (_, i) => longPath(i));
  const pages: Record<string, string> = {
    '/': page('Home', '<p>Welcome.</p><a href="/about">About</a> <a href="/deep">Deep</a>'),
    '/about': page('About', '<p>We repair bicycles in Porto since 2001.</p>'),
    '/deep': deep,
    '/globs': page('Globs', `<a href="/about">About</a> ${long.map((p) => `<a href="${p}">x</a>`).join(' ')}`),
  };
  if (robots !== undefined) pages['/robots.txt'] = robots;
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    const body = pages[path] ?? (/^\/a+$/.test(path) ? page('Letters', '<p>Only letters here.</p>') : undefined);
    if (body === undefined) {
      res.statusCode = 404;
      res.end('not found');
      return;
    }
    res.setHeader('content-type', path === '/robots.txt' ? 'text/plain' : 'text/html; charset=utf-8');
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
