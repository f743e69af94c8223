// A host page on its own port, as a customer's site embedding the player: the specs' pages keep the
// player's postMessage events in `window.events`.
import { createServer, type Server } from 'node:http';
import type { Page } from '@playwright/test';

export type HostEvent = { event: string; data: Record<string, unknown> | null; at?: number };

/**
 * The customer's page: it embeds the player URL given as `?src=` in an iframe of `size` (or of
 * `?w=` × `?h=` when size is 'query'), asks the player for `events` once it is ready, keeps them
 * in `window.events` (with the page's time) and sends chat text with `window.sendChat(text)`.
 */
export function hostPageHtml(events: string[], size: { width: number; height: number } | 'query' = { width: 480, height: 640 }): string {
  const style =
    size === 'query'
      ? `'border:0;width:' + q.get('w') + 'px;height:' + q.get('h') + 'px'`
      : `'border:0;width:${size.width}px;height:${size.height}px'`;
  return `<!doctype html><html><body style="margin:0;background:#eee">
<script>
  window.events = [];
  const q = new URLSearchParams(location.search);
  const f = document.createElement('iframe');
  f.src = q.get('src');
  f.style = ${style};
  f.allow = 'autoplay; microphone';
  document.body.appendChild(f);
  window.addEventListener('message', (e) => {
    if (e.source !== f.contentWindow || !e.data || e.data.source !== 'parla-player') return;
    window.events.push({ event: e.data.event, data: e.data.data, at: performance.now() });
    if (e.data.event === 'ready') f.contentWindow.postMessage({ command: 'forwardEvents', message: ${JSON.stringify(events)} }, '*');
  });
  window.sendChat = (text) => f.contentWindow.postMessage({ command: 'sendChat', message: text }, '*');
</script></body></html>`;
}

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
