// Every row of every table, as text: two snapshots are equal when nothing changed.
import { sql } from 'kysely';
import type { TestServer } from '../harness';

export async function tableNames(server: TestServer): Promise<string[]> {
  const res = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name
  `.execute(server.ctx.db);
  // runtime_processes is each process's liveness, touched every 2 s by the clock, never by a
  // request (decision 630); runtime_deliveries stays in: a refused request posts no message.
  return res.rows.map((r) => r.name).filter((n) => n !== 'runtime_processes');
}

export async function snapshot(server: TestServer, tables: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const t of tables) {
    const res = await sql<Record<string, unknown>>`select * from ${sql.table(t)}`.execute(server.ctx.db);
    const rows = res.rows.map((r) => JSON.stringify(r)).sort();
    out.set(t, rows.join('\n'));
  }
  return out;
}

/** The tables whose rows differ between two snapshots. */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after.keys()].filter((t) => before.get(t) !== after.get(t));
}
