// A host page on its own port, as a customer's site embedding the player: the specs' pages keep the
// player's postMessage events in `window.events`.
import { createServer, type Server } from 'node:http';
import type { Page } from '@playwright/test';

export type HostEvent = { event: string; data: Record<string, unknown> | null };

/** Serves `html` at every path on 127.0.0.1:`port`; close the server in afterAll. */
export async function serveHostPage(port: number, html: string): Promise<Server> {
  const host = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(html);
  });
  await new Promise<void>((resolve) => host.listen(port, '127.0.0.1', () => resolve()));
  return host;
}

/** The player events the host page received so far. */
export function hostEvents(page: Page): Promise<HostEvent[]> {
  return page.evaluate(() => (window as unknown as { events: HostEvent[] }).events);
}
