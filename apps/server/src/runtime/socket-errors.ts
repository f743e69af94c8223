// Errors on an open WebSocket (@fastify/websocket's errorHandler). A client that breaks the
// protocol (a frame over CONVERSATION_MAX_FRAME_BYTES, a bad opcode, bad UTF-8) or goes away is not
// a server fault: one info line, no stack, and `ws` has already started the close with its code
// (1009 for a frame too large, which the player explains). Anything else — an exception of a
// socket handler — is a bug, logged as an error, and the socket is dropped.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type WebSocket from 'ws';

const CLIENT_GONE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ETIMEDOUT']);

export function isClientSocketError(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && (code.startsWith('WS_ERR_') || CLIENT_GONE.has(code));
}

export function socketErrorHandler(error: Error, socket: WebSocket, request: Pick<FastifyRequest, 'log' | 'url'>): void {
  if (isClientSocketError(error)) {
    request.log.info(
      { code: (error as { code?: string }).code, reason: error.message, url: request.url.split('?')[0] },
      'websocket closed: the client broke the protocol or went away',
    );
    return;
  }
  request.log.error({ err: error }, 'websocket handler failed');
  socket.terminate();
}

/**
 * Lets go of the HTTP exchange that upgraded `socket`, which is over (issue 37: what an idle
 * conversation holds). @fastify/websocket leaves the upgrade's ServerResponse on the TCP socket
 * and its error listener closes over the request and reply, so every open socket kept the
 * request, the reply, their raw objects, headers and logger: about 3 KB a conversation. The
 * error listener is replaced by one that knows only the logger and the path.
 */
export function releaseUpgrade(socket: WebSocket, request: FastifyRequest, log: FastifyBaseLogger): void {
  const tcp = request.raw.socket as Socket & { _httpMessage?: ServerResponse | null };
  tcp._httpMessage?.detachSocket(tcp);
  const errors = { log, url: request.url.split('?')[0]! };
  socket.removeAllListeners('error');
  socket.on('error', (error) => socketErrorHandler(error, socket, errors));
}
