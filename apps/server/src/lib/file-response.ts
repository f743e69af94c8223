// Answers a GET or HEAD for a stored file from its chunks in the database (decision 015), as
// @fastify/send answered for files on disk before: one byte range (206 with Content-Range; 416
// with `bytes */size` when it starts past the end; several ranges get the whole file, as send
// did), HEAD without a body, and conditional requests (the ETag is the file's sha256, strong,
// since the bytes of an id never change; If-None-Match, If-Modified-Since, If-Range).
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { AppError } from './errors';
import type { FileStore } from './file-store';

export interface SendableFile {
  id: string;
  size_bytes: number;
  sha256: string;
  created_at: Date | string;
  /** Null: the bytes are not in the database (an older release's file never moved). */
  chunk_count: number | null;
}

type Range = { start: number; end: number } | 'unsatisfiable' | 'whole';

/** A `bytes=` Range header against a size (RFC 9110 §14.1.2), single ranges only. */
export function parseRange(header: string | undefined, size: number): Range {
  if (!header) return 'whole';
  const m = /^bytes=\s*(.+)$/i.exec(header.trim());
  if (!m) return 'whole';
  const specs = m[1]!.split(',').map((s) => s.trim());
  if (specs.length !== 1) return 'whole';
  const one = /^(\d*)-(\d*)$/.exec(specs[0]!);
  if (!one || (one[1] === '' && one[2] === '')) return 'whole';
  if (one[1] === '') {
    const suffix = Number(one[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(one[1]);
  const end = one[2] === '' ? size - 1 : Math.min(Number(one[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return 'whole';
  return { start, end };
}

function etagMatches(header: string, etag: string): boolean {
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t === etag);
}

export async function sendStoredFile(
  store: FileStore,
  db: Kysely<DB>,
  request: FastifyRequest,
  reply: FastifyReply,
  file: SendableFile,
  opts: { cacheControl: string; what: string },
): Promise<FastifyReply> {
  // A row without bytes is reported at start (server.ts); here it is simply not found.
  if (file.chunk_count === null) throw AppError.notFound(opts.what);
  const size = Number(file.size_bytes);
  const etag = `"${file.sha256}"`;
  const modified = new Date(file.created_at);
  modified.setMilliseconds(0);
  reply
    .header('accept-ranges', 'bytes')
    .header('etag', etag)
    .header('last-modified', modified.toUTCString())
    .header('cache-control', opts.cacheControl);

  const h = request.headers;
  const notModified = h['if-none-match']
    ? etagMatches(h['if-none-match'], etag)
    : h['if-modified-since'] !== undefined && Date.parse(h['if-modified-since']) >= modified.getTime();
  if (notModified) return reply.code(304).send();

  let range = parseRange(h.range, size);
  // If-Range: the range only while the client's copy is this one; else the whole file.
  const ifRange = typeof h['if-range'] === 'string' ? h['if-range'] : undefined;
  if (range !== 'whole' && ifRange && ifRange.trim() !== etag && Date.parse(ifRange) !== modified.getTime()) range = 'whole';
  if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${size}`).send();

  const { start, end } = range === 'whole' ? { start: 0, end: size - 1 } : range;
  if (range !== 'whole') reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
  reply.header('content-length', String(end - start + 1));
  if (request.method === 'HEAD' || size === 0) return reply.send();
  // Backpressure: the next chunks are read only as the client takes the previous ones.
  return reply.send(Readable.from(store.read(db, file.id, start, end), { highWaterMark: 1, objectMode: false }));
}
