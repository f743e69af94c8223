import { sql, type Kysely } from 'kysely';

// Allowed websites of an avatar (docs/decisions/205-allowed-websites.md): the normalised origins
// whose pages may open conversations with it; [] lets any site (the portal's own pages always).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table avatars add column allowed_origins jsonb not null default '[]'::jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table avatars drop column allowed_origins`.execute(db);
}
