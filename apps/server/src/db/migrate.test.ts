// migrate() without a schema, on a connection whose search_path names one: the migrations' table
// is that schema's own, even when another schema of the database is migrated already (Kysely,
// left to find the table by name, took the other schema's for this one's). PostgreSQL only
// (TEST_DATABASE_URL): PGlite has one schema.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './database';
import { migrate } from './migrate';

const URL_ = process.env.TEST_DATABASE_URL;

describe('migrate', () => {
  it.skipIf(!URL_)(
    'migrates the search_path schema of a database URL beside another migrated schema',
    async () => {
      const [first, second] = [`t_${randomBytes(6).toString('hex')}`, `t_${randomBytes(6).toString('hex')}`];
      const a = await openDatabase({ databaseUrl: URL_!, schema: first });
      await migrate(a.db, a.schema);
      await sql.raw(`create schema "${second}"`).execute(a.db);
      const url = new URL(URL_!);
      url.searchParams.set('options', `-c search_path=${second}`);
      const b = await openDatabase({ databaseUrl: url.toString() });
      try {
        expect((await migrate(b.db)).length).toBeGreaterThan(0);
        const tables = await sql<{ n: number }>`
        select count(*)::int as n from pg_tables where schemaname = ${second} and tablename = 'kysely_migration'`.execute(b.db);
        expect(tables.rows[0]!.n).toBe(1);
        expect(await migrate(b.db)).toEqual([]);
      } finally {
        await b.close();
        for (const s of [first, second]) await sql.raw(`drop schema if exists "${s}" cascade`).execute(a.db);
        await a.close();
      }
    },
    60_000,
  );
});
