import { sql, type Kysely } from 'kysely';

// Issue 13: the end user's OAuth identity, verified (decision 624).
// - oauth_apps.issuer, oauth_apps.jwks_url: the OpenID issuer and key set of the partner's
//   id_tokens (null: none configured; a partner's well-known ones may apply).
// - conversation_grants.verified_subject: `oauth:{appId}:{sub}` when the id_token was verified;
//   the conversation the grant opens is then keyed by it (memory).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table oauth_apps add column issuer text;
    alter table oauth_apps add column jwks_url text;
    alter table conversation_grants add column verified_subject text;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table oauth_apps drop column issuer;
    alter table oauth_apps drop column jwks_url;
    alter table conversation_grants drop column verified_subject;
  `.execute(db);
}
