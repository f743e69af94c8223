// Free space of DATA_DIR (decision 013). A full disk must cost one write, never the server:
//   - below DISK_MIN_FREE_MB ("low"), uploads are refused before a byte is stored (507 with
//     Retry-After), and the health endpoint and the VPS screen say so;
//   - below DISK_CRITICAL_MB ("full"), PGlite's writes are refused before they reach it too.
//     PGlite runs PostgreSQL in the server's thread: when PostgreSQL cannot create a WAL segment
//     (16 MB) it fails that statement, and the next one spins in WebAssembly for good, so the
//     event loop never turns again (issue 34: no answer, /api/health included, until kill -9).
//     Keeping PGlite away from the last megabytes is the only cure we control.
// Both recover by themselves: the state is read from statfs again at most once a second.
import { statfsSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from './errors';

export type DiskState = 'ok' | 'low' | 'full';

export interface DiskStatus {
  state: DiskState;
  freeBytes: number;
  totalBytes: number;
}

const MB = 1024 * 1024;
const RECHECK_MS = 1000;

export class DiskSpace {
  private last: DiskStatus | undefined;
  private checkedAt = -Infinity;
  private logged: DiskState = 'ok';

  constructor(
    private readonly dir: string,
    private readonly limits: { minFreeMb: number; criticalMb: number },
    private readonly log?: Pick<FastifyBaseLogger, 'warn' | 'error' | 'info'>,
  ) {}

  /** The current state (statfs at most once a second). */
  status(): DiskStatus {
    const now = performance.now();
    if (this.last && now - this.checkedAt < RECHECK_MS) return this.last;
    this.checkedAt = now;
    let freeBytes: number;
    let totalBytes: number;
    try {
      const s = statfsSync(this.dir);
      freeBytes = s.bavail * s.bsize;
      totalBytes = s.blocks * s.bsize;
    } catch {
      // DATA_DIR not made yet (tests) or unreadable: nothing to say about its space.
      this.last = { state: 'ok', freeBytes: Number.MAX_SAFE_INTEGER, totalBytes: 0 };
      return this.last;
    }
    const state: DiskState = freeBytes < this.limits.criticalMb * MB ? 'full' : freeBytes < this.limits.minFreeMb * MB ? 'low' : 'ok';
    this.last = { state, freeBytes, totalBytes };
    this.report(state, freeBytes);
    return this.last;
  }

  /** Refuses (507) an upload of up to `bytes` that would leave less than DISK_MIN_FREE_MB. */
  assertRoomFor(bytes: number): void {
    const { freeBytes } = this.status();
    if (freeBytes - bytes < this.limits.minFreeMb * MB) throw AppError.diskFull();
  }

  /** Whether database writes must be refused (PGlite only: see the top of this file). */
  writesBlocked(): boolean {
    return this.status().state === 'full';
  }

  /** One log line per change of state, so the administrator finds it without a flood. */
  private report(state: DiskState, freeBytes: number): void {
    if (state === this.logged) return;
    this.logged = state;
    const free = `${Math.floor(freeBytes / MB)} MB free in DATA_DIR (${this.dir})`;
    if (state === 'full')
      this.log?.error(`disk full: ${free}; uploads and database writes are refused until more than ${this.limits.criticalMb} MB are free`);
    else if (state === 'low')
      this.log?.warn(`disk space low: ${free}; uploads are refused until more than ${this.limits.minFreeMb} MB are free`);
    else this.log?.info(`disk space back: ${free}; uploads and writes accepted again`);
  }
}
