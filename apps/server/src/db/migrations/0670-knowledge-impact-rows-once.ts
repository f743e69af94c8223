import { sql, type Kysely } from 'kysely';

// The impact rows' trigger (migration 0402, decision 604) computed each chunk's length — the
// number of positions in its tsvector, a sub-select over unnest(tsv) — once per impact row
// instead of once per chunk: the planner flattened the sub-query that named it, so every row of
// the chunk (about 15–26) unnested the whole tsvector again (~250 lexemes). That was most of the
// trigger's cost (issue 37 item 3, decision 406's amendment of 2026-11-29). `offset 0` keeps the
// sub-query whole: the length and its logarithm are computed once per chunk. The rows and their
// impacts are the same values as before (same numeric expressions), so nothing is back-filled.
const ROWS = `
      insert into knowledge_chunk_terms (chunk_id, owner_id, collection_id, ts_config, lexeme, tf, impact)
      select c.id, c.owner_id, c.collection_id, c.ts_config, t.lexeme, cardinality(t.positions),
        (1.6449340668 - 1.0 / (cardinality(t.positions) + 0.5)) / c.ln_len
      from (
        select k.id, k.owner_id, k.collection_id, k.ts_config, k.tsv,
          ln((select sum(coalesce(cardinality(x.positions), 1)) from unnest(k.tsv) x) + 1.0) as ln_len
        from changed_chunks k
        offset 0
      ) c, unnest(c.tsv) t
      where cardinality(t.positions) >= 2`;

// As migration 0402 wrote it.
const ROWS_0402 = `
      insert into knowledge_chunk_terms (chunk_id, owner_id, collection_id, ts_config, lexeme, tf, impact)
      select c.id, c.owner_id, c.collection_id, c.ts_config, t.lexeme, cardinality(t.positions),
        (1.6449340668 - 1.0 / (cardinality(t.positions) + 0.5)) / ln(c.len + 1.0)
      from (
        select k.id, k.owner_id, k.collection_id, k.ts_config, k.tsv,
          (select sum(coalesce(cardinality(x.positions), 1)) from unnest(k.tsv) x) as len
        from changed_chunks k
      ) c, unnest(c.tsv) t
      where cardinality(t.positions) >= 2`;

const writer = (rows: string) => `
    create or replace function knowledge_chunk_terms_write() returns trigger language plpgsql as $fn$
    begin
      if tg_op = 'UPDATE' then
        delete from knowledge_chunk_terms where chunk_id in (select id from changed_chunks);
      end if;
      ${rows};
      return null;
    end
    $fn$`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(writer(ROWS)).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(writer(ROWS_0402)).execute(db);
}
