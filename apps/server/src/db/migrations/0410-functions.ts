import { sql, type Kysely } from 'kysely';

// Customers' Python functions (spec 4 §3). Approval is bound to the code: approved_code_sha256
// is the hash of the code an administrator approved; a function is usable only while its status
// is Approved and that hash equals code_sha256 (docs/decisions/401). Nothing here runs code.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table functions (
      id text primary key,
      owner_id text not null references users(id) on delete cascade,
      name text not null,
      code text not null,
      language text not null default 'python',
      code_sha256 text not null,
      approval_status text not null default 'Pending' check (approval_status in ('Pending', 'Approved', 'Rejected')),
      approved_code_sha256 text,
      review_reason text,
      reviewed_by text references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      admin_updated_at timestamptz
    );
    create index functions_owner_idx on functions(owner_id, created_at);
    create index functions_review_idx on functions(approval_status, updated_at);
    -- The review screen reads a function's decisions from the audit trail by target.
    create index if not exists audit_log_target_idx on audit_log(target, id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists audit_log_target_idx; drop table functions;`.execute(db);
}
