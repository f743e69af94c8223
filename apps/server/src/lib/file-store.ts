// The one file store: DATA_DIR/files/{ownerId}/{fileId}.{ext}. Names are generated here, never
// taken from the user (path traversal). Writes are all-or-nothing:
//   1. stage(): stream into DATA_DIR/files/tmp, counting bytes (over the limit → 413, temp
//      removed), fsync, then rename to the final name;
//   2. record(trx, ...): insert the stored_files row in the caller's transaction;
//   3. after a failed transaction, discard() the staged file.
// Deleting: forget(trx, ...) in the transaction, unlink() after the commit. sweep() removes
// files that have no row (crash leftovers) and stale temp files.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema';
import type { DiskSpace } from './disk-space';
import { AppError } from './errors';
import * as rows from './stored-files.repository';

export interface StagedFile {
  id: string;
  ownerId: string;
  relPath: string;
  absPath: string;
  size: number;
  sha256: string;
  /** The first bytes, for magic-number checks. */
  head: Buffer;
}

export interface StageOptions {
  maxBytes: number;
  /** Extension of the stored name, chosen by the server from the checked type. */
  ext: string;
  /** The message when the limit is passed, e.g. 'File size exceeds 10MB for image.' */
  tooLargeMessage: string;
}

const ORPHAN_AGE_MS = 10 * 60 * 1000;
const HEAD_BYTES = 64;

export class FileStore {
  readonly root: string;
  private readonly tmp: string;

  constructor(
    dataDir: string,
    private readonly disk?: DiskSpace,
  ) {
    this.root = resolve(dataDir, 'files');
    this.tmp = join(this.root, 'tmp');
  }

  private ownerDir(ownerId: string): string {
    if (!/^[A-Za-z0-9-]{1,64}$/.test(ownerId)) throw new Error('invalid owner id');
    return join(this.root, ownerId);
  }

  async stage(ownerId: string, source: AsyncIterable<Buffer | Uint8Array>, opts: StageOptions): Promise<StagedFile> {
    if (!/^[a-z0-9]{1,8}$/.test(opts.ext)) throw new Error('invalid extension');
    // Refused before a byte is stored when the largest allowed file would not fit (decision 013).
    this.disk?.assertRoomFor(opts.maxBytes);
    await mkdir(this.tmp, { recursive: true });
    const id = randomUUID();
    const tmpPath = join(this.tmp, `${id}.part`);
    const handle = await open(tmpPath, 'wx', 0o600);
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
      await handle.sync();
    } catch (err) {
      await handle.close().catch(() => {});
      await rm(tmpPath, { force: true });
      throw err;
    }
    await handle.close();
    const dir = this.ownerDir(ownerId);
    await mkdir(dir, { recursive: true });
    const absPath = join(dir, `${id}.${opts.ext}`);
    await rename(tmpPath, absPath);
    return { id, ownerId, relPath: relative(this.root, absPath), absPath, size, sha256: hash.digest('hex'), head: Buffer.concat(heads) };
  }

  /** Records a staged file inside the caller's transaction. */
  async record(
    db: Kysely<DB> | Transaction<DB>,
    file: StagedFile,
    meta: { kind: string; contentType: string; originalName?: string | null },
  ): Promise<void> {
    await rows.insert(db, {
      id: file.id,
      owner_id: file.ownerId,
      kind: meta.kind,
      rel_path: file.relPath,
      original_name: meta.originalName?.slice(0, 255) ?? null,
      content_type: meta.contentType,
      size_bytes: file.size,
      sha256: file.sha256,
    });
  }

  /** Removes a staged file whose transaction did not commit. */
  async discard(file: StagedFile | undefined): Promise<void> {
    if (file) await rm(file.absPath, { force: true });
  }

  /** Deletes the row (in the caller's transaction); returns the path to unlink after commit. */
  async forget(db: Kysely<DB> | Transaction<DB>, ownerId: string, fileId: string): Promise<string | null> {
    const relPath = await rows.remove(db, ownerId, fileId);
    return relPath ? join(this.root, relPath) : null;
  }

  async unlink(paths: (string | null)[]): Promise<void> {
    await Promise.all(paths.filter((p): p is string => Boolean(p)).map((p) => rm(p, { force: true })));
  }

  /** The owner's file, or null. */
  async find(db: Kysely<DB>, ownerId: string, fileId: string) {
    return rows.find(db, ownerId, fileId);
  }

  /** Any file by id (public assets such as avatar backgrounds); callers decide who may read. */
  async findById(db: Kysely<DB>, fileId: string) {
    return rows.findById(db, fileId);
  }

  openRead(relPath: string): ReadStream {
    return createReadStream(join(this.root, relPath));
  }

  absolute(relPath: string): string {
    return join(this.root, relPath);
  }

  /** Rows whose file is not on this process's disk (a new checkout or another machine on the
   *  same database: every such file would answer 404). Counted only; never deletes a row. */
  async missing(db: Kysely<DB>): Promise<{ checked: number; missing: number; examples: string[] }> {
    let checked = 0;
    const examples: string[] = [];
    let missing = 0;
    for (let after = ''; ;) {
      const page = await rows.pageOfPaths(db, after, 1000);
      for (const r of page) {
        checked++;
        try {
          await stat(join(this.root, r.rel_path));
        } catch {
          missing++;
          if (examples.length < 3) examples.push(r.rel_path);
        }
      }
      if (page.length < 1000) break;
      after = page.at(-1)!.id;
    }
    return { checked, missing, examples };
  }

  /** Removes files with no row and temp files, both older than ten minutes. */
  async sweep(db: Kysely<DB>, now = Date.now()): Promise<{ removed: string[] }> {
    const removed: string[] = [];
    const old = async (p: string) => now - (await stat(p)).mtimeMs > ORPHAN_AGE_MS;
    let owners: string[] = [];
    try {
      owners = await readdir(this.root);
    } catch {
      return { removed };
    }
    for (const owner of owners) {
      const dir = join(this.root, owner);
      let names: string[];
      try {
        names = await readdir(dir);
      } catch {
        continue;
      }
      if (owner === 'tmp') {
        for (const n of names) {
          if (!(await old(join(dir, n)))) continue;
          await rm(join(dir, n), { force: true });
          removed.push(join('tmp', n));
        }
        continue;
      }
      const known = await rows.pathsOf(db, owner);
      for (const n of names) {
        const rel = join(owner, n);
        if (!known.has(rel) && (await old(join(dir, n)))) {
          await rm(join(dir, n), { force: true });
          removed.push(rel);
        }
      }
    }
    return { removed };
  }
}
