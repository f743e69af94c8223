import { sql, type Kysely } from 'kysely';

// The impact table of full-text search (docs/decisions/604): for each chunk, the lexemes that
// occur in it at least twice, with an impact that orders chunks as ts_rank(tsv, lexeme, 1|32)
// does (more occurrences first, a shorter chunk first at equal count). A search whose words
// match more chunks than it ranks adds, per query word, the chunks of highest impact to its
// candidates, so its top answers no longer depend on which matches the GIN index returns first.
//
// The rows are written by triggers on knowledge_chunks (every insert, and the update of a
// collection's re-index), in SQL from the chunk's tsvector; they go with their chunk (on delete
// cascade). So ingestion, retry, a resumed item, deletes and direct inserts stay consistent.
//
// impact = (π²/6 − 1/(tf + ½)) / ln(length + 1): ts_rank's occurrence sum Σ 1/j² (j ≤ tf, within
// 0.5 % of it for tf ≥ 2) over its 1 + log length normalisation, length = positions in the chunk.
/** Writes the rows of the chunks in `source` (the table, or a trigger's transition table). */
function termsOf(source: 'knowledge_chunks' | 'changed_chunks') {
  return sql.raw(`
    insert into knowledge_chunk_terms (chunk_id, owner_id, collection_id, ts_config, lexeme, tf, impact)
    select c.id, c.owner_id, c.collection_id, c.ts_config, t.lexeme, cardinality(t.positions),
      (1.6449340668 - 1.0 / (cardinality(t.positions) + 0.5)) / ln(c.len + 1.0)
    from (
      select k.id, k.owner_id, k.collection_id, k.ts_config, k.tsv,
        (select sum(coalesce(cardinality(x.positions), 1)) from unnest(k.tsv) x) as len
      from ${source} k
    ) c, unnest(c.tsv) t
    where cardinality(t.positions) >= 2`);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table knowledge_chunk_terms (
      chunk_id bigint not null references knowledge_chunks(id) on delete cascade,
      owner_id text not null,
      collection_id text not null,
      ts_config text not null,
      lexeme text not null,
      tf integer not null,
      impact real not null,
      primary key (chunk_id, lexeme)
    );

    create function knowledge_chunk_terms_write() returns trigger language plpgsql as $fn$
    begin
      if tg_op = 'UPDATE' then
        delete from knowledge_chunk_terms where chunk_id in (select id from changed_chunks);
      end if;
      ${termsOf('changed_chunks')};
      return null;
    end
    $fn$;

    ${termsOf('knowledge_chunks')};

    create index knowledge_chunk_terms_impact_idx on knowledge_chunk_terms(collection_id, ts_config, lexeme, impact desc);

    create trigger knowledge_chunk_terms_insert after insert on knowledge_chunks
      referencing new table as changed_chunks for each statement execute function knowledge_chunk_terms_write();
    create trigger knowledge_chunk_terms_update after update on knowledge_chunks
      referencing new table as changed_chunks for each statement execute function knowledge_chunk_terms_write();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger knowledge_chunk_terms_update on knowledge_chunks;
    drop trigger knowledge_chunk_terms_insert on knowledge_chunks;
    drop function knowledge_chunk_terms_write();
    drop table knowledge_chunk_terms;
  `.execute(db);
}
