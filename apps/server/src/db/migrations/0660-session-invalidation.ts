import { sql, type Kysely } from 'kysely';

// Issue 37 item 4 (decision 017): every server process keeps a short cache of session look-ups
// and drops a user's entries when told. The telling is done here, by the database, so that no
// write path can forget it: any update or delete of a user or a session (sign-out, sign-out
// everywhere, password reset, suspension, role change, account deletion, an operator's SQL)
// notifies `parla_auth` with the user's id once its transaction commits; TRUNCATE notifies '*'
// (drop everything). Inserts need nothing: a new session has a token nobody has cached.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function parla_auth_notify() returns trigger language plpgsql as $$
    begin
      if tg_op = 'TRUNCATE' then
        perform pg_notify('parla_auth', '*');
      elsif tg_table_name = 'users' then
        perform pg_notify('parla_auth', old.id);
        if tg_op = 'UPDATE' and new.id is distinct from old.id then
          perform pg_notify('parla_auth', new.id);
        end if;
      else
        perform pg_notify('parla_auth', old.user_id);
        if tg_op = 'UPDATE' and new.user_id is distinct from old.user_id then
          perform pg_notify('parla_auth', new.user_id);
        end if;
      end if;
      return null;
    end
    $$;
    create trigger users_auth_notify after update or delete on users
      for each row execute function parla_auth_notify();
    create trigger sessions_auth_notify after update or delete on sessions
      for each row execute function parla_auth_notify();
    create trigger users_auth_notify_truncate after truncate on users
      for each statement execute function parla_auth_notify();
    create trigger sessions_auth_notify_truncate after truncate on sessions
      for each statement execute function parla_auth_notify();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger sessions_auth_notify_truncate on sessions;
    drop trigger users_auth_notify_truncate on users;
    drop trigger sessions_auth_notify on sessions;
    drop trigger users_auth_notify on users;
    drop function parla_auth_notify();
  `.execute(db);
}
