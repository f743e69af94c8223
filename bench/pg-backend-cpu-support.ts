// PostgreSQL's own CPU on behalf of a bench (its backends, not the bench's process): the client
// backends connected to the bench's database, read from /proc (the server runs on this machine;
// elsewhere nothing is read and the figure is NaN). Unlike wall time, the machine's load barely
// moves it. A backend that exits between two readings takes its CPU with it (the pool closes
// clients idle for 10 s; the busy ones stay).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { sql, type Kysely } from 'kysely';

const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim() || 100);

/** CPU milliseconds so far of each client backend of the current database, by pid. */
export async function backendCpu(db: Kysely<unknown>): Promise<Map<number, number>> {
  const pids = await sql<{ pid: number }>`
    select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend'`.execute(db);
  const cpu = new Map<number, number>();
  for (const { pid } of pids.rows) {
    try {
      // Fields after the command's closing parenthesis: state is the first, utime the 12th, stime the 13th.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      cpu.set(pid, (Number(fields[11]) + Number(fields[12])) * TICK_MS);
    } catch {
      // Not on this machine, or gone.
    }
  }
  return cpu;
}

/** The CPU the backends used between two readings (NaN when none could be read). */
export function backendCpuSince(before: Map<number, number>, after: Map<number, number>): number {
  if (after.size === 0) return NaN;
  let ms = 0;
  for (const [pid, now] of after) ms += now - (before.get(pid) ?? 0);
  return ms;
}
