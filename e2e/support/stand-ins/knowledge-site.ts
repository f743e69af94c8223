// A small website on loopback for the knowledge crawler and URL items: a home page linking to
// pages of the same site, one page robots.txt forbids, one marked noindex, a link to another
// site and one to a private address (both must never be fetched), and a page that fails until
// it is switched on (retry of a failed item). Used by API tests and the end-to-end run.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface KnowledgeSite {
  port: number;
  url: string;
  /** Paths requested so far, in order. */
  requests: string[];
  /** Makes /flaky answer 200 instead of 503. */
  setFlakyHealthy(healthy: boolean): void;
  /** The text of /news, a page that changes (re-sync). */
  setNews(text: string): void;
  close(): Promise<void>;
}

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html><head><title>${title}</title>${head}<script>var tracking = "script text must not be indexed";</script></head>` +
  `<body><nav><a href="/">Home</a> <a href="/about">About us</a> menu text</nav><main>${body}</main><footer>Footer text</footer></body></html>`;

export async function startKnowledgeSite(port = 0): Promise<KnowledgeSite> {
  const requests: string[] = [];
  let flakyHealthy = false;
  let news = 'Spring news: the workshop now repairs cargo bikes.';
  const pages: Record<string, string> = {
    '/': page(
      'Acme Bikes',
      `<h1>Welcome to Acme Bikes</h1><p>We build sturdy city bicycles in Lisbon.</p>
       <a href="/about">About</a> <a href="/pricing">Pricing</a> <a href="/support/warranty#terms">Warranty</a>
       <a href="/private/admin">Staff area</a> <a href="/hidden">Hidden</a> <a href="/logo.png">Logo</a>
       <a href="https://other-site.example/">Partner</a> <a href="http://169.254.169.254/latest/meta-data/">Metadata</a>
       <a href="mailto:hello@acme.example">Mail</a>`,
    ),
    '/about': page('About Acme Bikes', '<h1>About</h1><p>Acme Bikes was founded in 1999 by two mechanics who loved commuting by bike.</p>'),
    '/pricing': page(
      'Pricing',
      `<h1>Pricing</h1><table><tr><th>Model</th><th>Price</th></tr><tr><td>Commuter</td><td>899 EUR</td></tr>
       <tr><td>Cargo</td><td>1899 EUR</td></tr></table>`,
    ),
    '/support/warranty': page(
      'Warranty',
      '<h1>Warranty</h1><p>Every frame carries a lifetime warranty against cracks; gears and brakes are covered for two years.</p>',
    ),
    '/private/admin': page('Staff only', '<p>Robots may not come here.</p>'),
    '/hidden': page('Hidden page', '<p>Not for search engines.</p>', '<meta name="robots" content="noindex">'),
  };
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    if (path === '/robots.txt') {
      res.setHeader('content-type', 'text/plain');
      res.end('User-agent: *\nDisallow: /private/\n');
      return;
    }
    if (path === '/notes.txt') {
      res.setHeader('content-type', 'text/plain; charset=utf-8');
      res.end('Opening hours: the Lisbon workshop opens at nine and closes at six, Monday to Saturday.');
      return;
    }
    if (path === '/news') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(page('News', `<h1>News</h1><p>${news}</p>`));
      return;
    }
    if (path === '/flaky') {
      if (!flakyHealthy) {
        res.statusCode = 503;
        res.end('try later');
        return;
      }
      res.setHeader('content-type', 'text/html');
      res.end(page('Flaky', '<p>The flaky page finally answered with saddle adjustment tips.</p>'));
      return;
    }
    if (path === '/redirect-private') {
      res.statusCode = 302;
      res.setHeader('location', 'http://127.0.0.1:1/secret');
      res.end();
      return;
    }
    const html = pages[path];
    if (!html) {
      res.statusCode = 404;
      res.end('not found');
      return;
    }
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const actual = (server.address() as AddressInfo).port;
  return {
    port: actual,
    url: `http://127.0.0.1:${actual}`,
    requests,
    setFlakyHealthy: (h) => {
      flakyHealthy = h;
    },
    setNews: (text) => {
      news = text;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
