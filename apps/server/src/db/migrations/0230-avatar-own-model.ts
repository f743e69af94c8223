import { sql, type Kysely } from 'kysely';

// A customer's own 3D avatar (docs/decisions/123-bring-your-own-3d-avatar.md): the stored file
// (a stored_files id, also listed in avatar_media as list 'model') and the rig the model check
// found in it (mouth shapes mapped to the player's visemes, blink, smile, bones), so the player
// needs no second look at the file. null: the avatar wears a catalogue appearance.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table avatars add column own_model jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table avatars drop column own_model`.execute(db);
}
