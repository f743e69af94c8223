// One error handler: every failure leaves as { status: 'ERROR', code, errors, failReason? }.
// 5xx bodies are generic; their detail goes to the log only.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ErrorCode, ERROR_MESSAGES, INVALID_PARAMS_FALLBACK, type ErrorBody } from '@parla/shared/errors';
import { issueMessages } from '@parla/shared/zod-messages';
import { AppError } from '../lib/errors';

function send(reply: FastifyReply, status: number, body: ErrorBody & Record<string, unknown>, headers?: Record<string, string>) {
  if (headers) reply.headers(headers);
  return reply.status(status).type('application/json').send(body);
}

/** SQLSTATE of text PostgreSQL cannot hold: 22021 invalid byte sequence (a NUL in text),
 *  22P05 untranslatable character (a NUL in jsonb). */
const NUL_REFUSED = new Set(['22021', '22P05']);
export const NUL_MESSAGE = 'Text must not contain NUL characters.';

/** ENOSPC from the file system or SQLSTATE 53100 (disk_full) from PostgreSQL or PGlite. */
export function isDiskFull(err: unknown): boolean {
  const code = err && typeof err === 'object' ? String((err as { code?: unknown }).code) : '';
  return code === 'ENOSPC' || code === '53100';
}

export function toErrorReply(
  err: unknown,
): { status: number; body: ErrorBody & Record<string, unknown>; headers?: Record<string, string> } | null {
  if (err instanceof AppError) {
    return {
      status: err.httpStatus,
      body: {
        status: 'ERROR',
        code: err.code,
        errors: err.errors,
        ...(err.extra.failReason ? { failReason: err.extra.failReason } : {}),
        ...(err.extra.body ?? {}),
      },
      ...(err.extra.headers ? { headers: err.extra.headers } : {}),
    };
  }
  if (hasZodFastifySchemaValidationErrors(err)) {
    return { status: 400, body: { status: 'ERROR', code: ErrorCode.InvalidOrMissingParams, errors: issueMessages(err.validation) } };
  }
  // A full disk (the file store's ENOSPC, PostgreSQL's disk_full 53100) fails the one write that
  // needed space, with a message the user can act on (decision 013).
  if (isDiskFull(err)) return toErrorReply(AppError.diskFull());
  // PostgreSQL refuses text holding a NUL character (\u0000) in a text or jsonb value: input
  // no form sends, refused like any other malformed input.
  if (err && typeof err === 'object' && NUL_REFUSED.has(String((err as { code?: unknown }).code))) {
    return { status: 400, body: { status: 'ERROR', code: ErrorCode.InvalidOrMissingParams, errors: [NUL_MESSAGE] } };
  }
  const fe = err as FastifyError;
  if (fe && typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    const status = fe.statusCode;
    const message =
      status === 413
        ? 'The request is too large.'
        : status === 415
          ? 'Unsupported content type. Send JSON (application/json).'
          : status === 429
            ? 'Too many requests. Please wait a moment and try again.'
            : status === 416
              ? 'The requested range is not satisfiable.'
              : fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError
                ? 'The request body is not valid JSON.'
                : INVALID_PARAMS_FALLBACK;
    const code = status === 429 ? ErrorCode.RequestFail : ErrorCode.InvalidOrMissingParams;
    // A file sender's 416 carries `Content-Range: bytes */size` (RFC 9110 §15.5.17).
    const range = status === 416 ? (fe as { headers?: Record<string, unknown> }).headers?.['Content-Range'] : undefined;
    return {
      status,
      body: { status: 'ERROR', code, errors: [message] },
      ...(typeof range === 'string' ? { headers: { 'content-range': range } } : {}),
    };
  }
  return null;
}

/** Fastify's own errors before routing (a URL whose percent-encoding does not decode): the
 *  contract's shape too (Fastify's option `frameworkErrors`). */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const known = toErrorReply(err);
  if (known) {
    void send(reply, known.status, known.body, known.headers);
    return;
  }
  request.log.error({ err }, 'unexpected framework error');
  void send(reply, 500, { status: 'ERROR', code: ErrorCode.ServerError, errors: [ERROR_MESSAGES[ErrorCode.ServerError]] });
}

export function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const known = toErrorReply(err);
    if (known) {
      if (known.status === 507)
        request.log.warn({ err }, 'write refused: the disk is full (free space in DATA_DIR, see docs/reliability.md)');
      else if (known.status >= 500) request.log.error({ err }, 'request failed');
      return send(reply, known.status, known.body, known.headers);
    }
    request.log.error({ err }, 'unexpected error');
    return send(reply, 500, { status: 'ERROR', code: ErrorCode.ServerError, errors: [ERROR_MESSAGES[ErrorCode.ServerError]] });
  });

  app.setNotFoundHandler((request, reply) => {
    return send(reply, 404, {
      status: 'ERROR',
      code: ErrorCode.InvalidOrMissingParams,
      errors: [`No such endpoint: ${request.method} ${request.url.split('?')[0]}`],
      failReason: 'NOT_FOUND',
    });
  });
}
