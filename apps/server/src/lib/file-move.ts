// The upgrade of the file store (decision 015): files an older release kept in
// DATA_DIR/files/{rel_path} move into the database at start, before the server listens. One
// transaction per file (row locked, bytes inserted, checked against the row's size and sha256,
// row marked), so a crash or a stop midway loses nothing and the next start goes on where this one
// stopped; a row already moved (by this or another process on the same PostgreSQL) is skipped.
// The disk copy is deleted only after its transaction committed: on PGlite the database lives on
// the same disk, and keeping both copies would double what uploads take.
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import type { DiskSpace } from './disk-space';
import type { FileStore } from './file-store';
import * as rows from './stored-files.repository';

export interface MoveLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface MoveResult {
  moved: number;
  bytes: number;
  /** Rows whose file is not in this DATA_DIR (another machine's, or lost). */
  absent: number;
  /** Files whose size or sha256 differ from their row: left on disk, row unchanged. */
  damaged: number;
  /** True when the disk had no room left to move more (the rest waits for the next start). */
  stoppedForSpace: boolean;
}

class Damaged extends Error {}

export async function moveFilesIntoDatabase(
  db: Kysely<DB>,
  store: FileStore,
  opts: { disk?: DiskSpace; databaseOnDisk?: boolean; log?: MoveLog } = {},
): Promise<MoveResult> {
  const result: MoveResult = { moved: 0, bytes: 0, absent: 0, damaged: 0, stoppedForSpace: false };
  for (let after = ''; ;) {
    const page = await rows.pageOnDisk(db, after, 200);
    for (const r of page) {
      const path = join(store.root, r.rel_path!);
      const size = await stat(path).then(
        (s) => (s.isFile() ? s.size : -1),
        () => -1,
      );
      if (size < 0) {
        result.absent++;
        continue;
      }
      if (size !== Number(r.size_bytes)) {
        result.damaged++;
        opts.log?.warn({ file: r.id, path, size, expected: Number(r.size_bytes) }, 'stored file has the wrong size on disk: not moved');
        continue;
      }
      // On PGlite the copy lands on this disk: stop before it would pass the floor (decision 013).
      if (opts.databaseOnDisk && opts.disk) {
        try {
          opts.disk.assertRoomFor(size);
        } catch {
          result.stoppedForSpace = true;
          return report(result, opts.log);
        }
      }
      try {
        const moved = await db.transaction().execute(async (trx) => {
          if (!(await rows.lockOnDisk(trx, r.id))) return false;
          const written = await store.copyIn(trx, r.id, path);
          if (written.size !== Number(r.size_bytes) || written.sha256 !== r.sha256) throw new Damaged();
          await rows.markMoved(trx, r.id, written.chunks);
          return true;
        });
        if (!moved) continue;
        await rm(path, { force: true });
        result.moved++;
        result.bytes += size;
      } catch (err) {
        if (!(err instanceof Damaged)) throw err;
        result.damaged++;
        opts.log?.warn({ file: r.id, path }, "stored file's bytes differ from its checksum on disk: not moved");
      }
    }
    if (page.length < 200) break;
    after = page.at(-1)!.id;
  }
  return report(result, opts.log);
}

function report(result: MoveResult, log?: MoveLog): MoveResult {
  if (result.moved > 0)
    log?.info(
      { ...result },
      `moved ${result.moved} stored files (${Math.round(result.bytes / 1024 / 1024)} MB) from DATA_DIR into the database`,
    );
  if (result.stoppedForSpace)
    log?.warn(
      { ...result },
      'stopped moving stored files into the database: not enough free space in DATA_DIR; the rest moves at the next start',
    );
  return result;
}
