// Small helpers shared by the provider stand-ins.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface StandInRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** The path below the provider's prefix, e.g. /v1/models. */
  path: string;
  query: URLSearchParams;
  header(name: string): string;
}

export type Handler = (r: StandInRequest) => boolean;

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): true {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
  return true;
}
