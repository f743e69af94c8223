// A tiny loopback HTTP server for the runtime's stand-ins: JSON bodies, recorded requests.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Buffer;
  json(): any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test data
}

export type Handler = (req: Recorded, res: ServerResponse) => void | Promise<void>;

export interface StandIn {
  server: Server;
  port: number;
  url: string;
  /** host:port for OUTBOUND_ALLOW. */
  allow: string;
  requests: Recorded[];
  close(): Promise<void>;
}

export async function startHttp(handler: Handler, port = 0): Promise<StandIn> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const body = Buffer.concat(chunks);
      const rec: Recorded = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        json: () => JSON.parse(body.toString('utf8') || 'null'),
      };
      requests.push(rec);
      Promise.resolve(handler(rec, res)).catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const bound = (server.address() as AddressInfo).port;
  return {
    server,
    port: bound,
    url: `http://127.0.0.1:${bound}`,
    allow: `127.0.0.1:${bound}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
}
