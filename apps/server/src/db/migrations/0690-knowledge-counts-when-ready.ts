import { sql, type Kysely } from 'kysely';

// The lexeme counts of decision 408 are added once per item, when its chunks are all written,
// not per statement of chunks (issue 37 item 3, decision 406's amendment of 2026-11-29 (3)). The
// ingestion writer wrote one or two chunks a statement on PGlite, and each statement upserted a
// count row for every distinct word of its chunks (~250): 3–4.6 ms of CPU a chunk, the largest
// part of its cost. Counted over many chunks of an item at once, words the chunks share are
// upserted once.
//
// knowledge_items.uncounted_from: null, every chunk of the item is in the counts (as before, and
// as for every existing item: nothing to back-fill); a number n, its chunks of ord ≥ n are not.
// The writer sets it before it writes and moves it up as it counts (knowledge.ingest-writer.ts).
// The triggers of migration 0406 now count only counted chunks: an insert, a delete and the update
// of a re-index leave uncounted chunks out. Search never reads the chunks of an item that is not
// ready (knowledge-rank.repository.ts's `unready`), and an item is counted before it is ready.
//
// A chunk's delete trigger decides by its item's row; an item's own delete (and the cascade of a
// collection's or a user's) removes the item row first, so the item's uncounted chunks are deleted
// by a trigger before its row goes, while the row still says they are uncounted.
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

/** The chunks of a transition table that are in the counts. */
const COUNTED = (table: string) => `(
      select * from ${table} t
      where not exists (select 1 from knowledge_items i where i.id = t.item_id and i.uncounted_from <= t.ord)
    )`;

const DROP_ZEROS = `delete from knowledge_lexeme_counts where df <= 0 and collection_id in (select distinct collection_id from old_chunks)`;

/** `body` over the counted chunks of a transition table; over the table itself (0406's statement)
 *  when none of its items has uncounted chunks: one look-up per item, not an anti-join per chunk. */
function counting(table: string, body: (source: string) => string): string {
  return `if exists (select 1 from knowledge_items i where i.id in (select t.item_id from ${table} t) and i.uncounted_from is not null) then
        ${body(COUNTED(table))};
      else
        ${body(table)};
      end if`;
}

function functions(counts: (table: string, body: (source: string) => string) => string): string {
  return `
    create or replace function knowledge_lexeme_counts_add() returns trigger language plpgsql as $fn$
    begin
      ${counts('new_chunks', (t) => UPSERT(t, '+'))};
      return null;
    end
    $fn$;

    create or replace function knowledge_lexeme_counts_remove() returns trigger language plpgsql as $fn$
    begin
      ${counts('old_chunks', (t) => UPSERT(t, '-'))};
      ${DROP_ZEROS};
      return null;
    end
    $fn$;

    create or replace function knowledge_lexeme_counts_change() returns trigger language plpgsql as $fn$
    begin
      ${counts('old_chunks', (t) => UPSERT(t, '-'))};
      ${counts('new_chunks', (t) => UPSERT(t, '+'))};
      ${DROP_ZEROS};
      return null;
    end
    $fn$;`;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
    alter table knowledge_items add column uncounted_from integer;
    ${functions(counting)}

    create function knowledge_items_drop_uncounted() returns trigger language plpgsql as $fn$
    begin
      delete from knowledge_chunks where item_id = old.id and ord >= old.uncounted_from;
      return old;
    end
    $fn$;
    create trigger knowledge_items_uncounted_delete before delete on knowledge_items
      for each row when (old.uncounted_from is not null) execute function knowledge_items_drop_uncounted();`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The chunks not yet counted are counted: the triggers of 0406 count every chunk.
  await sql
    .raw(
      `
    drop trigger knowledge_items_uncounted_delete on knowledge_items;
    drop function knowledge_items_drop_uncounted();
    ${UPSERT(
      `(select c.* from knowledge_chunks c join knowledge_items i on i.id = c.item_id
        where i.uncounted_from is not null and c.ord >= i.uncounted_from)`,
      '+',
    )};
    alter table knowledge_items drop column uncounted_from;
    ${functions((table, body) => body(table))}`,
    )
    .execute(db);
}
