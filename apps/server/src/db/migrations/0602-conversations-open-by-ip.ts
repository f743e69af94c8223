import { sql, type Kysely } from 'kysely';

// Every conversation that opens counts the open conversations of its address (the per-IP
// concurrency limit): without this index that count read the whole table each time, so opening
// got slower with every conversation held (bench/concurrent-sockets.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index conversations_ip_open_idx on conversations(ip_address) where ended_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index conversations_ip_open_idx`.execute(db);
}
