import { sql, type Kysely } from 'kysely';

// Encryption keys (spec 4 §3): ECDSA P-256 public keys. A customer's own keys keep only the
// public half; the one default key per account also keeps its private half, encrypted with the
// server's secret, so the product itself can sign access tokens for its own previews
// (docs/decisions/402). Access-token ids (jti) are remembered until they expire: single use.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table encryption_keys (
      id text primary key,
      owner_id text not null references users(id) on delete cascade,
      name text not null,
      public_key_pem text not null,
      private_key_enc text,
      default_key boolean not null default false,
      created_at timestamptz not null default now()
    );
    create index encryption_keys_owner_idx on encryption_keys(owner_id, created_at);
    create unique index encryption_keys_one_default on encryption_keys(owner_id) where default_key;

    create table access_token_uses (
      key_id text not null references encryption_keys(id) on delete cascade,
      jti text not null,
      expires_at timestamptz not null,
      primary key (key_id, jti)
    );
    create index access_token_uses_expiry_idx on access_token_uses(expires_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table access_token_uses; drop table encryption_keys;`.execute(db);
}
