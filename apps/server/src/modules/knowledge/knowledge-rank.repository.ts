// BM25-like full-text ranking over a bounded candidate set (docs/decisions/400, 604, 407).
// The query's meaningful words (stop words dropped, stemmed by the collection's configuration)
// find the candidates as before — the first RANK_CANDIDATES matches of any word through the GIN
// index, plus each word's highest-impact chunks when there are more — and each candidate is
// scored Σ idf(word) · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen)): a chunk holding the rare
// words outranks one holding every common word. Document frequencies and the number of chunks
// are read from knowledge_lexeme_counts (kept by triggers, migration 0406): one index probe per
// word, where counting through the GIN index visited a heap page per chunk; rarity saturates at one
// chunk in a thousand (RARE_SHARE). The score is the
// share of the query's weight a chunk holds, 0..1: each word's BM25 part is capped at that of
// two occurrences at average length (a word repeated cannot make up for a missing one), divided
// by the same for every word — so a threshold means the same for every query. Chunks of equal score are ordered by the uncapped BM25 sum.
import { sql } from 'kysely';
import type { AppContext } from '../../context';

/** How many matches, in the index's order, are ranked per query (see the header). */
export const RANK_CANDIDATES = 400;
/** Per query word and collection, the chunks of highest impact added when there are more matches. */
export const TERM_CANDIDATES = 50;
/** Rarity saturates: a word in fewer than one chunk of a thousand (or in none) weighs as one in
 *  exactly that share. Uncapped, the idf of a word the collection lacks ("long" in "how long is the
 *  saddle warranty") grows as ln(2N) and swamps the common words that do match, so the same answer
 *  cleared the threshold at 20,000 chunks and not at 100,000 (bench 4). Capped, the threshold, a
 *  share of the query's weight, means the same at any collection size. */
const RARE_SHARE = 0.001;
const MAX_IDF = Math.log(1 + 1 / RARE_SHARE);
/** Query words used (after stop words). */
export const MAX_TERM_WORDS = 8;
const K1 = 1.2;
const B = 0.75;
/** The per-word term part of a chunk holding the word twice at average length (score 1.0). */
const FULL = (2 * (K1 + 1)) / (2 + K1);

export interface RankedChunk {
  id: number;
  /** 0..1: the share of the query's weight the chunk holds (each word's BM25 part capped at
   *  that of two occurrences at average length), see the header. */
  score: number;
  /** Normalised BM25 without the cap: orders chunks of equal score. */
  raw: number;
  content: string;
  collection_id: string;
  item_id: string;
  item_name: string;
}

/** Ranks the chunks of `collectionIds` (all indexed with `config`) for the words `text`. */
export async function rankChunks(
  ctx: AppContext,
  ownerId: string,
  collectionIds: string[],
  config: string,
  text: string,
  limit: number,
): Promise<RankedChunk[]> {
  const ids = sql.join(collectionIds);
  // The first matches are found with the query's lexemes OR'ed as a plan-time constant (the bound
  // parameters are folded): the planner then sees which words are common and reads the first
  // matches lazily, where behind the sub-select `q` it guessed 0.5 % of the chunks and built the
  // GIN bitmap of every match (100,000 entries for a word in every chunk, tens of ms on PGlite).
  // Each word (letters and digits) is one token, so with at most MAX_TERM_WORDS words these are
  // exactly the lexemes of `words` (`exact`: the filter by `q` folds away); with more, `q` (its
  // first MAX_TERM_WORDS) filters as well.
  const exact = text.split(/\s+/).filter(Boolean).length <= MAX_TERM_WORDS;
  const res = await sql<RankedChunk & { raw: number; covered: number; idf_sum: number }>`
    with unready as materialized (
      select id from knowledge_items where owner_id = ${ownerId} and status in ('queued', 'processing')
    ), words as materialized (
      select distinct w.lexeme from unnest(tsvector_to_array(to_tsvector(${config}::regconfig, ${text}))) as w(lexeme) limit ${MAX_TERM_WORDS}
    ), q as materialized (
      select (select string_agg(quote_literal(lexeme), ' | ') from words)::tsquery as query, array(select lexeme from words) as lexemes
    ), firsts as materialized (
      select id, tsv from knowledge_chunks
      where owner_id = ${ownerId} and collection_id in (${ids}) and ts_config = ${config}
        and tsv @@ nullif(replace(strip(to_tsvector(${config}::regconfig, ${text}))::text, ''' ''', ''' | '''), '')::tsquery
        and (${exact}::boolean or tsv @@ (select query from q)) and item_id not in (select id from unready)
      limit ${RANK_CANDIDATES + 1}
    ), weighty as (
      select distinct t.chunk_id as id
      from words w
      cross join unnest(array[${ids}]::text[]) as c(id)
      cross join lateral (
        select chunk_id from knowledge_chunk_terms
        where collection_id = c.id and ts_config = ${config} and lexeme = w.lexeme and owner_id = ${ownerId}
        order by impact desc
        limit ${Math.max(limit, TERM_CANDIDATES)}
      ) t
      where (select count(*) from firsts) > ${RANK_CANDIDATES}
    ), candidates as materialized (
      select id, tsv from firsts
      union all
      select k.id, k.tsv from knowledge_chunks k join weighty w on w.id = k.id
      where not exists (select 1 from firsts f where f.id = k.id) and k.item_id not in (select id from unready)
    ), sized as materialized (
      select id, length(tsv)::float8 as len, ts_filter(setweight(tsv, 'A', (select lexemes from q)), '{a}') as hits from candidates
    ), counts as materialized (
      select w.lexeme, coalesce((
        select sum(df) from knowledge_lexeme_counts
        where collection_id in (${ids}) and ts_config = ${config} and lexeme = w.lexeme and owner_id = ${ownerId}
      ), 0)::float8 as df
      from words w
    ), total as (
      select greatest(coalesce(sum(df), 0), 1)::float8 as n
      from knowledge_lexeme_counts where collection_id in (${ids}) and ts_config = ${config} and lexeme = '' and owner_id = ${ownerId}
    ), idf as (
      select c.lexeme, least(ln(1 + (greatest(t.n, c.df) - c.df + 0.5) / (c.df + 0.5)), ${MAX_IDF}::float8) as idf from counts c, total t
    ), norms as (
      select greatest(avg(len), 1) as avglen, (select sum(idf) from idf) as idf_sum from sized
    ), scored as (
      select s.id, sum(i.idf * t.part) as raw, sum(i.idf * least(t.part, ${FULL}::float8)) as covered
      from sized s
      cross join lateral unnest(s.hits) f
      cross join norms n
      cross join lateral (
        select cardinality(f.positions) * ${K1 + 1}::float8 / (cardinality(f.positions) + ${K1}::float8 * (1 - ${B}::float8 + ${B}::float8 * s.len / n.avglen)) as part
      ) t
      join idf i on i.lexeme = f.lexeme
      group by s.id
    ), ranked as (
      select id, raw, covered from scored order by covered desc, raw desc, id limit ${limit}
    )
    select r.id, r.raw::float8 as raw, r.covered::float8 as covered, (select idf_sum from norms)::float8 as idf_sum, k.content, k.collection_id, i.id as item_id, i.name as item_name
    from ranked r
    join knowledge_chunks k on k.id = r.id
    join knowledge_items i on i.id = k.item_id
    order by r.covered desc, r.raw desc, r.id
  `.execute(ctx.db);
  return res.rows.map((r) => {
    const max = Number(r.idf_sum) * FULL;
    return {
      id: Number(r.id),
      score: max > 0 ? Number(r.covered) / max : 0,
      raw: max > 0 ? Number(r.raw) / max : 0,
      content: r.content,
      collection_id: r.collection_id,
      item_id: r.item_id,
      item_name: r.item_name,
    };
  });
}
