// What a page asked the server and how long each answer took, for failure messages of steps that
// wait on the server (a step that times out says which requests were slow or never answered).
import type { Page, Request } from '@playwright/test';

export interface RequestLog {
  /** Requests since `since` (ms, Date.now()) that took at least `minMs` or are still open. */
  slow(since: number, minMs?: number): string;
}

export function logRequests(page: Page): RequestLog {
  const started = new Map<Request, number>();
  const done: { req: Request; start: number; ms: number; outcome: string }[] = [];
  page.on('request', (req) => started.set(req, Date.now()));
  const finish = (req: Request, outcome: string) => {
    const start = started.get(req);
    if (start === undefined) return;
    started.delete(req);
    done.push({ req, start, ms: Date.now() - start, outcome });
  };
  page.on('requestfinished', (req) => void req.response().then((r) => finish(req, String(r?.status() ?? '?'))));
  page.on('requestfailed', (req) => finish(req, req.failure()?.errorText ?? 'failed'));
  const name = (req: Request) => `${req.method()} ${new URL(req.url()).pathname}`;
  return {
    slow(since, minMs = 1000) {
      const lines = done.filter((d) => d.start >= since && d.ms >= minMs).map((d) => `${name(d.req)} ${d.outcome} in ${d.ms} ms`);
      for (const [req, start] of started) if (start >= since) lines.push(`${name(req)} still open after ${Date.now() - start} ms`);
      return lines.length ? lines.join('; ') : `no request since then took ${minMs} ms or more`;
    },
  };
}
