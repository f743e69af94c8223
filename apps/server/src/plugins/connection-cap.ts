// A cap on the connections one client address holds open at once (HTTP, keep-alive and
// WebSocket alike: an upgraded socket stays the same connection), so one address cannot take
// every file descriptor and socket buffer of the server (issue 33, item 8; decision 412).
// A connection beyond the cap is not served: its first request is answered 429 with the error
// body every route uses and `connection: close`, before any route or hook of the application
// runs; one that sends nothing is closed after a few seconds. The conversation socket keeps its
// own per-address rule (MAX_CONVERSATIONS_PER_IP, runtime/admission.ts) with its own message;
// this cap is far above it and counts sockets, not conversations.
// Behind a reverse proxy (TRUST_PROXY) every connection comes from the proxy's address, so the
// cap is not applied here: the proxy caps its clients (docs/deploy.md).
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '@parla/shared/errors';
import { AppError } from '../lib/errors';

export const TOO_MANY_CONNECTIONS_MESSAGE = 'Too many open connections from this address. Close some and try again.';

/** How long a refused connection may stay open without sending a request. */
const REFUSED_IDLE_MS = 5_000;

export function registerConnectionCap(app: FastifyInstance, perAddress: number): void {
  if (perAddress <= 0) return;
  const open = new Map<string, number>();
  const refused = new WeakSet<Socket>();

  app.server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const n = open.get(address) ?? 0;
    if (n >= perAddress) {
      refused.add(socket);
      socket.setTimeout(REFUSED_IDLE_MS, () => socket.destroy());
      return;
    }
    open.set(address, n + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });

  // The first hook of every request, WebSocket upgrades included.
  app.addHook('onRequest', async (req) => {
    if (!refused.has(req.raw.socket)) return;
    throw new AppError(ErrorCode.RequestFail, 429, [TOO_MANY_CONNECTIONS_MESSAGE], {
      headers: { 'retry-after': String(REFUSED_IDLE_MS / 1000), connection: 'close' },
      failReason: 'RATE_LIMITED',
    });
  });
}
