// The one file store (decisions 005 and 015). The bytes of every uploaded file live in the
// database (file_chunks, 256 KB a row), so every process on one PostgreSQL and one backup see
// them. Writes are all-or-nothing:
//   1. stage(): stream the upload into DATA_DIR/files/tmp, counting bytes (over the limit → 413,
//      temp removed) — nothing reaches the database, and a slow client holds no connection;
//   2. record(trx, ...): insert the stored_files row and its chunks in the caller's transaction;
//   3. discard() the temp file afterwards, whether the transaction committed or not.
// Deleting: forget(trx, ...) deletes the row; its chunks go with it. Reads stream chunk by chunk
// (read()), a few chunks per query, never the whole file in memory.
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema';
import type { DiskSpace } from './disk-space';
import { AppError } from './errors';
import * as rows from './stored-files.repository';

export interface StagedFile {
  id: string;
  ownerId: string;
  /** The temp file (checks that need more than the head read it). */
  absPath: string;
  size: number;
  sha256: string;
  /** The first bytes, for magic-number checks. */
  head: Buffer;
}

export interface StageOptions {
  maxBytes: number;
  /** Extension of the temp name, chosen by the server from the checked type. */
  ext: string;
  /** The message when the limit is passed, e.g. 'File size exceeds 10MB for image.' */
  tooLargeMessage: string;
}

/** Bytes per file_chunks row: small enough for any driver, large enough for few rows. */
export const CHUNK_BYTES = 256 * 1024;
/** Chunks fetched per query while streaming (1 MB in memory at most per reader). */
const CHUNKS_PER_READ = 4;
const TEMP_AGE_MS = 10 * 60 * 1000;
const HEAD_BYTES = 64;

export class FileStore {
  readonly root: string;
  readonly tmp: string;

  /** `databaseOnDisk`: the database writes into DATA_DIR too (PGlite), so an upload needs room
   *  for its temp file and its copy in the database. */
  constructor(
    dataDir: string,
    private readonly disk?: DiskSpace,
    private readonly databaseOnDisk = false,
  ) {
    this.root = resolve(dataDir, 'files');
    this.tmp = join(this.root, 'tmp');
  }

  async stage(ownerId: string, source: AsyncIterable<Buffer | Uint8Array>, opts: StageOptions): Promise<StagedFile> {
    if (!/^[a-z0-9]{1,8}$/.test(opts.ext)) throw new Error('invalid extension');
    if (!/^[A-Za-z0-9-]{1,64}$/.test(ownerId)) throw new Error('invalid owner id');
    // Refused before a byte is stored when the largest allowed file would not fit (decision 013).
    this.disk?.assertRoomFor(opts.maxBytes * (this.databaseOnDisk ? 2 : 1));
    await mkdir(this.tmp, { recursive: true });
    const id = randomUUID();
    const absPath = join(this.tmp, `${id}.${opts.ext}`);
    const handle = await open(absPath, 'wx', 0o600);
    const hash = createHash('sha256');
    const heads: Buffer[] = [];
    let headLen = 0;
    let size = 0;
    try {
      for await (const raw of source) {
        const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw);
        size += chunk.length;
        if (size > opts.maxBytes) throw AppError.tooLarge(opts.tooLargeMessage);
        if (headLen < HEAD_BYTES) {
          heads.push(chunk.subarray(0, HEAD_BYTES - headLen));
          headLen += Math.min(chunk.length, HEAD_BYTES - headLen);
        }
        hash.update(chunk);
        await handle.write(chunk);
      }
    } catch (err) {
      await handle.close().catch(() => {});
      await rm(absPath, { force: true });
      throw err;
    }
    await handle.close();
    return { id, ownerId, absPath, size, sha256: hash.digest('hex'), head: Buffer.concat(heads) };
  }

  /** Records a staged file, row and bytes, inside the caller's transaction. */
  async record(
    db: Kysely<DB> | Transaction<DB>,
    file: StagedFile,
    meta: { kind: string; contentType: string; originalName?: string | null },
  ): Promise<void> {
    const chunkCount = Math.ceil(file.size / CHUNK_BYTES);
    await rows.insert(db, {
      id: file.id,
      owner_id: file.ownerId,
      kind: meta.kind,
      rel_path: null,
      original_name: meta.originalName?.slice(0, 255) ?? null,
      content_type: meta.contentType,
      size_bytes: file.size,
      sha256: file.sha256,
      chunk_count: chunkCount,
    });
    const written = await this.copyIn(db, file.id, file.absPath);
    // The temp file changed under us (it never should): the transaction must not commit.
    if (written.size !== file.size || written.sha256 !== file.sha256)
      throw new Error(`staged file ${file.id} changed before it was recorded`);
  }

  /** Inserts a file's bytes from disk as chunks; what was read. */
  async copyIn(db: Kysely<DB> | Transaction<DB>, fileId: string, path: string): Promise<{ size: number; sha256: string; chunks: number }> {
    const handle = await open(path, 'r');
    const hash = createHash('sha256');
    let size = 0;
    let idx = 0;
    try {
      for (;;) {
        const buf = Buffer.allocUnsafe(CHUNK_BYTES);
        let filled = 0;
        while (filled < CHUNK_BYTES) {
          const { bytesRead } = await handle.read(buf, filled, CHUNK_BYTES - filled, null);
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        if (filled === 0) break;
        const data = buf.subarray(0, filled);
        hash.update(data);
        size += filled;
        await rows.insertChunk(db, fileId, idx++, data);
        if (filled < CHUNK_BYTES) break;
      }
    } finally {
      await handle.close();
    }
    return { size, sha256: hash.digest('hex'), chunks: idx };
  }

  /** Removes a staged temp file: after its transaction, committed or not. */
  async discard(file: StagedFile | undefined): Promise<void> {
    if (file) await rm(file.absPath, { force: true });
  }

  /** Deletes the row and its bytes, in the caller's transaction. */
  async forget(db: Kysely<DB> | Transaction<DB>, ownerId: string, fileId: string): Promise<void> {
    await rows.remove(db, ownerId, fileId);
  }

  /** The owner's file, or null. */
  async find(db: Kysely<DB>, ownerId: string, fileId: string) {
    return rows.find(db, ownerId, fileId);
  }

  /** Any file by id (public assets such as avatar backgrounds); callers decide who may read. */
  async findById(db: Kysely<DB>, fileId: string) {
    return rows.findById(db, fileId);
  }

  /** Bytes `start`..`end` (inclusive) of a stored file, a few chunks per query. A chunk that is
   *  not there ends the stream with an error (the response is cut, never padded). */
  async *read(db: Kysely<DB>, fileId: string, start: number, end: number): AsyncGenerator<Buffer> {
    if (end < start) return;
    const last = Math.floor(end / CHUNK_BYTES);
    for (let idx = Math.floor(start / CHUNK_BYTES); idx <= last; idx += CHUNKS_PER_READ) {
      const to = Math.min(last, idx + CHUNKS_PER_READ - 1);
      const got = await rows.chunks(db, fileId, idx, to);
      if (got.length !== to - idx + 1) throw new Error(`stored file ${fileId} lacks chunks ${idx}-${to}`);
      for (const c of got) {
        const data = Buffer.isBuffer(c.data) ? c.data : Buffer.from(c.data.buffer, c.data.byteOffset, c.data.byteLength);
        const base = c.idx * CHUNK_BYTES;
        yield data.subarray(Math.max(0, start - base), Math.min(data.length, end - base + 1));
      }
    }
  }

  /** Writes a stored file into a temp file (for the extraction children, which read a path);
   *  the caller removes it with `rm` when done. */
  async toTempFile(db: Kysely<DB>, file: { id: string; size_bytes: number }): Promise<string> {
    await mkdir(this.tmp, { recursive: true });
    const path = join(this.tmp, `${randomUUID()}.read`);
    const handle = await open(path, 'wx', 0o600);
    try {
      for await (const data of this.read(db, file.id, 0, Number(file.size_bytes) - 1)) await handle.write(data);
    } catch (err) {
      await handle.close().catch(() => {});
      await rm(path, { force: true });
      throw err;
    }
    await handle.close();
    return path;
  }

  /** How many files have their bytes in the database (a backup reports it). */
  countStored(db: Kysely<DB>): Promise<number> {
    return rows.countWithBytes(db);
  }

  /** Rows whose bytes are not in the database (an older release's file this process could not
   *  move, or a damaged row): every such file answers 404. Counted only; never deletes a row. */
  async missing(db: Kysely<DB>): Promise<{ checked: number; missing: number; examples: string[] }> {
    const r = await rows.withoutBytes(db);
    return { checked: r.checked, missing: r.missing, examples: r.examples.map((e) => e.rel_path ?? e.id) };
  }

  /** Removes temp files older than ten minutes (a crash between staging and discarding). */
  async sweep(now = Date.now()): Promise<{ removed: string[] }> {
    const removed: string[] = [];
    let names: string[];
    try {
      names = await readdir(this.tmp);
    } catch {
      return { removed };
    }
    for (const n of names) {
      const p = join(this.tmp, n);
      try {
        if (now - (await stat(p)).mtimeMs <= TEMP_AGE_MS) continue;
      } catch {
        continue;
      }
      await rm(p, { force: true });
      removed.push(join('tmp', n));
    }
    return { removed };
  }
}
