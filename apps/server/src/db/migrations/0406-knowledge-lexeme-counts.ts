import { sql, type Kysely } from 'kysely';

// Document frequencies for BM25-like ranking (docs/decisions/407, 408): per collection and
// text-search configuration, in how many chunks each lexeme occurs, and under the empty lexeme ''
// how many chunks there are. Counting them at query time through the GIN index visits one heap
// page per counted chunk (a word in 10 % of 100,000 chunks took tens of milliseconds on PGlite);
// read from here it is one index probe per word.
//
// Written by statement-level triggers on knowledge_chunks (insert, delete, and the update of a
// re-index), from the transition tables, in SQL — like knowledge_chunk_terms (migration 0402) —
// so every path that writes chunks keeps it right. Rows are upserted in lexeme order, so two
// batches written into one collection at once wait for each other instead of deadlocking.
const COUNT_ROWS = (source: string, sign: '+' | '-') => `
    select owner_id, collection_id, ts_config, lexeme, ${sign}count(*)::int as df
    from (
      select c.owner_id, c.collection_id, c.ts_config, l.lexeme
      from ${source} c cross join lateral unnest(tsvector_to_array(c.tsv)) as l(lexeme)
      union all
      select c.owner_id, c.collection_id, c.ts_config, '' from ${source} c
    ) x
    group by owner_id, collection_id, ts_config, lexeme
    order by collection_id, ts_config, lexeme`;

const UPSERT = (source: string, sign: '+' | '-') => `
    insert into knowledge_lexeme_counts (owner_id, collection_id, ts_config, lexeme, df)
    ${COUNT_ROWS(source, sign)}
    on conflict (collection_id, ts_config, lexeme) do update set df = knowledge_lexeme_counts.df + excluded.df`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table knowledge_lexeme_counts (
      collection_id text not null,
      ts_config text not null,
      lexeme text not null,
      owner_id text not null,
      df integer not null,
      primary key (collection_id, ts_config, lexeme)
    );

    create function knowledge_lexeme_counts_add() returns trigger language plpgsql as $fn$
    begin
      ${sql.raw(UPSERT('new_chunks', '+'))};
      return null;
    end
    $fn$;

    create function knowledge_lexeme_counts_remove() returns trigger language plpgsql as $fn$
    begin
      ${sql.raw(UPSERT('old_chunks', '-'))};
      delete from knowledge_lexeme_counts where df <= 0 and collection_id in (select distinct collection_id from old_chunks);
      return null;
    end
    $fn$;

    create function knowledge_lexeme_counts_change() returns trigger language plpgsql as $fn$
    begin
      ${sql.raw(UPSERT('old_chunks', '-'))};
      ${sql.raw(UPSERT('new_chunks', '+'))};
      delete from knowledge_lexeme_counts where df <= 0 and collection_id in (select distinct collection_id from old_chunks);
      return null;
    end
    $fn$;

    insert into knowledge_lexeme_counts (owner_id, collection_id, ts_config, lexeme, df)
    ${sql.raw(COUNT_ROWS('knowledge_chunks', '+'))};

    create trigger knowledge_lexeme_counts_insert after insert on knowledge_chunks
      referencing new table as new_chunks for each statement execute function knowledge_lexeme_counts_add();
    create trigger knowledge_lexeme_counts_delete after delete on knowledge_chunks
      referencing old table as old_chunks for each statement execute function knowledge_lexeme_counts_remove();
    create trigger knowledge_lexeme_counts_update after update on knowledge_chunks
      referencing old table as old_chunks new table as new_chunks for each statement execute function knowledge_lexeme_counts_change();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger knowledge_lexeme_counts_update on knowledge_chunks;
    drop trigger knowledge_lexeme_counts_delete on knowledge_chunks;
    drop trigger knowledge_lexeme_counts_insert on knowledge_chunks;
    drop function knowledge_lexeme_counts_change();
    drop function knowledge_lexeme_counts_remove();
    drop function knowledge_lexeme_counts_add();
    drop table knowledge_lexeme_counts;
  `.execute(db);
}
