// Reading multipart bodies safely (every upload route): the parser's failures are the client's
// (400, or 413 for too many parts or too large a file), the disk's are ours; and a parser that
// stalls on a malformed body is answered instead of waited for (docs/decisions/203).
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors';

/** A parser failure as the client's error; null for a failure of ours (the disk). */
export function multipartClientError(err: unknown, malformed: () => AppError): AppError | null {
  if (err instanceof AppError) return err;
  const e = err as { statusCode?: number; code?: string; syscall?: string; errno?: number };
  if (e && (e.syscall || typeof e.errno === 'number')) return null;
  if (e?.statusCode === 413 || e?.code === 'FST_REQ_FILE_TOO_LARGE') {
    return AppError.tooLarge('The upload has too many parts or a file is too large.');
  }
  return malformed();
}

/**
 * The multipart parser can stall for good on some malformed bodies (a part it skips, such as one
 * without Content-Disposition, larger than its 16 KB buffer). While we wait for the next part
 * nothing else reads the body, so a request stream paused by the parser for this long is such a
 * stall: answer it as malformed instead of waiting for the request timeout.
 */
const STALL_MS = 1500;

export async function* stallGuarded<T>(source: AsyncIterable<T>, request: FastifyRequest, malformed: () => AppError): AsyncIterable<T> {
  const it = source[Symbol.asyncIterator]();
  let finished = false;
  try {
    yield* guarded();
  } finally {
    // Leaving early (a refused part) ends the parser's iterator too, without waiting for it.
    if (!finished) void it.return?.()?.catch(() => {});
  }
  async function* guarded() {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const stalled = new Promise<never>((_resolve, reject) => {
        const check = () => {
          if (request.raw.readableFlowing === false && !request.raw.readableEnded) reject(malformed());
          else timer = setTimeout(check, STALL_MS);
        };
        timer = setTimeout(check, STALL_MS);
      });
      try {
        const next = await Promise.race([it.next(), stalled]);
        if (next.done) {
          finished = true;
          return;
        }
        yield next.value;
      } finally {
        clearTimeout(timer);
      }
    }
  }
}
