// A loopback stand-in the server is allowed to reach (OUTBOUND_ALLOW) that sends every request
// on: `/redirect?status=N&to=URL` answers that redirect; `/to/{base64url URL}/...` redirects any
// path below it there (a provider base URL pointed at it redirects every call); `/links` is a
// page linking to each URL given in `to` (a crawl must not follow them); `/login-then?to=URL`
// answers a REST endpoint's LOGIN and LOGOUT events and redirects every other one (CHAT) with 307
// to URL. It counts its requests.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Redirector {
  url: string;
  /** A base URL whose every path redirects to `target`. */
  baseTo(target: string): string;
  allow: string;
  requests(): number;
  close(): Promise<void>;
}

export async function startRedirector(): Promise<Redirector> {
  let count = 0;
  const server = createServer((req, res) => {
    count++;
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/login-then') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        let event = '';
        try {
          event = String((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { event?: unknown }).event ?? '');
        } catch {
          event = '';
        }
        if (event === 'LOGIN' || event === 'LOGOUT') res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        else res.writeHead(307, { location: url.searchParams.get('to') ?? '/' }).end();
      });
      return;
    }
    if (url.pathname === '/redirect') {
      res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('to') ?? '/' }).end();
      return;
    }
    const to = /^\/to\/([\w-]+)/.exec(url.pathname);
    if (to) {
      res.writeHead(302, { location: Buffer.from(to[1]!, 'base64url').toString() }).end();
      return;
    }
    if (url.pathname === '/links' || url.pathname === '/') {
      const links = url.searchParams
        .getAll('to')
        .map((t) => `<a href="${t.replace(/"/g, '&quot;')}">link</a>`)
        .join(' ');
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html><title>Links</title><main><p>Links to follow.</p>${links}</main>`);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    baseTo: (target) => `http://127.0.0.1:${port}/to/${Buffer.from(target).toString('base64url')}`,
    allow: `127.0.0.1:${port}`,
    requests: () => count,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
