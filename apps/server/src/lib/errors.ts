// The one error model: services throw AppError; plugins/errors.ts turns it into the contract's
// body { status: 'ERROR', code, errors, failReason? }. Internal detail never reaches the body.
import { DISK_FULL_MESSAGE, ErrorCode, ERROR_MESSAGES, INVALID_PARAMS_FALLBACK, type FailReason } from '@parla/shared/errors';

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly httpStatus: number,
    readonly errors: string[],
    readonly extra: { failReason?: FailReason; headers?: Record<string, string>; body?: Record<string, unknown> } = {},
  ) {
    super(errors.join(', '));
    this.name = 'AppError';
  }

  static invalid(messages: string | string[] = INVALID_PARAMS_FALLBACK, failReason?: FailReason): AppError {
    const list = Array.isArray(messages) ? messages : [messages];
    return new AppError(ErrorCode.InvalidOrMissingParams, 400, list.length ? list : [INVALID_PARAMS_FALLBACK], {
      ...(failReason ? { failReason } : {}),
    });
  }

  /** Unknown ids and ids of another account look the same: not found. */
  static notFound(what = 'Item'): AppError {
    return new AppError(ErrorCode.InvalidOrMissingParams, 404, [`${what} not found.`], { failReason: 'NOT_FOUND' });
  }

  static unauthenticated(message = ERROR_MESSAGES[ErrorCode.AuthenticationFailed]): AppError {
    return new AppError(ErrorCode.AuthenticationFailed, 401, [message]);
  }

  static invalidToken(message = ERROR_MESSAGES[ErrorCode.InvalidToken]): AppError {
    return new AppError(ErrorCode.InvalidToken, 401, [message]);
  }

  static invalidAppKey(): AppError {
    return new AppError(ErrorCode.InvalidAPIKey, 401, [ERROR_MESSAGES[ErrorCode.InvalidAPIKey]]);
  }

  static forbidden(message = 'You do not have permission to do this.'): AppError {
    return new AppError(ErrorCode.AuthenticationFailed, 403, [message]);
  }

  static stale(): AppError {
    return new AppError(ErrorCode.StaleRequest, 409, [ERROR_MESSAGES[ErrorCode.StaleRequest]], { failReason: 'STALE_REQUEST' });
  }

  static tooLarge(message: string): AppError {
    return new AppError(ErrorCode.InvalidOrMissingParams, 413, [message], { failReason: 'FILE_TOO_LARGE' });
  }

  static rateLimited(retryAfterSeconds: number, message: string): AppError {
    return new AppError(ErrorCode.RequestFail, 429, [message], {
      headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
      failReason: 'RATE_LIMITED',
    });
  }

  /** A write refused for want of disk space: the client may try again later (decision 013). */
  static diskFull(retryAfterSeconds = 60): AppError {
    return new AppError(ErrorCode.RequestFail, 507, [DISK_FULL_MESSAGE], {
      headers: { 'retry-after': String(retryAfterSeconds) },
      failReason: 'DISK_FULL',
    });
  }

  static of(code: ErrorCode, httpStatus: number, failReason?: FailReason): AppError {
    return new AppError(code, httpStatus, [ERROR_MESSAGES[code]], failReason ? { failReason } : {});
  }

  static server(): AppError {
    return AppError.of(ErrorCode.ServerError, 500);
  }
}
