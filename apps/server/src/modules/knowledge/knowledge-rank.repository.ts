// BM25-like full-text ranking over a bounded candidate set (docs/decisions/400, 604, 407).
// The query's meaningful words (stop words dropped, stemmed by the collection's configuration)
// are looked up first in knowledge_lexeme_counts (their document frequencies) and split by
// rarity (decision 409): the rarest words whose matches add up to at most RANK_CANDIDATES give
// all their matches through the GIN index (exact), and each commoner word gives its
// TERM_CANDIDATES highest-impact chunks (knowledge_chunk_terms) plus, together, the first
// COMMON_SAMPLE of their matches in index order (for chunks holding a word once). The work is
// then bounded by the rare words' matches, not by how common the common ones are. Each candidate
// is scored Σ idf(word) · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen)): a chunk holding the rare
// words outranks one holding every common word. Document frequencies and the number of chunks
// are read from knowledge_lexeme_counts (kept by triggers, migration 0406): one index probe per
// word, where counting through the GIN index visited a heap page per chunk; rarity saturates at one
// chunk in a thousand (RARE_SHARE). The score is the
// share of the query's weight a chunk holds, 0..1: each word's BM25 part is capped at that of
// two occurrences at average length (a word repeated cannot make up for a missing one), divided
// by the same for every word — so a threshold means the same for every query. Chunks of equal score are ordered by the uncapped BM25 sum.
// The statement only finds the candidates and where the query's words stand in them; the scoring is
// knowledge.scoring.ts's, in PostgreSQL's float8 arithmetic (issue 37, decision 424).
// The best RERANK_CANDIDATES are then re-scored with where their words stand (decisions 417, 425):
// 0.4 of the score is that share, 0.6 the weight of the question words found within one window of
// ~30 words (knowledge.proximity.ts) — a chunk of 800 tokens is the unit of storage, not of meaning.
// In English, a long question's words that no chunk holds, nor any synonym of them, get their
// nearest words as stand-ins (word vectors, knowledge.paraphrase.ts, decisions 420, 427).
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import { absentWeight, englishChunkShare, isNoun } from './knowledge.background';
import { hasThesaurus, synonymsOf } from './knowledge.thesaurus';
import { nearestWindow } from './knowledge.proximity';
import { spellingVariants } from './knowledge.spelling';
import { NEIGHBOUR_STAND_INS, nearWords } from './knowledge.paraphrase';
import { B, FULL, K1, candidatesOf, groupMax, scoreCandidates, spotsOf } from './knowledge.scoring';

/** The rarest words are ranked on all their matches while these add up to at most this. */
export const RANK_CANDIDATES = 400;
/** Per common word and collection, the chunks of highest impact ranked. */
export const TERM_CANDIDATES = 50;
/** The common words' first matches in index order, ranked as well (chunks holding a word once). */
const COMMON_SAMPLE = 100;
/** Rarity saturates: a word in fewer than one chunk of a thousand (or in none) weighs as one in
 *  exactly that share. Uncapped, the idf of a word the collection lacks ("long" in "how long is the
 *  saddle warranty") grows as ln(2N) and swamps the common words that do match, so the same answer
 *  cleared the threshold at 20,000 chunks and not at 100,000 (bench 4). Capped, the threshold, a
 *  share of the query's weight, means the same at any collection size. */
const RARE_SHARE = 0.001;
const MAX_IDF = Math.log(1 + 1 / RARE_SHARE);
/** Query words used (after stop words). */
export const MAX_TERM_WORDS = 8;
/** Chunks re-ranked by where their words stand (knowledge.proximity.ts). */
const RERANK_CANDIDATES = 40;
/** The share of the score that the chunk's best window gives (chosen on the tuning halves of
 *  Bench 10 held-out, decision 417: 0, 0.3, 0.5 and 0.7 tried; 0.5 ranked the most answers in the
 *  top 3). Decision 425, on the tuning halves grown by the fourth set: 0.6 puts three more of the
 *  manual's answers in the top 3 (its chunks hold several API entries each, and a table's words
 *  stand far apart) and takes none from the FAQ, the prose or Bench 10's set; 0.55 moved nothing,
 *  0.65 and 0.7 cost the prose or the FAQ one. */
const NEAR_SHARE = 0.6;
/** How many chunks of evidence spoken English's frequency of a word is worth next to the collection's
 *  own document frequency (decision 418): in a collection of 60 chunks "stop" in 1 and "delimiter" in
 *  2 would weigh alike; with the prior an everyday word weighs less than a technical one, and in a
 *  collection of thousands of chunks the collection's own counts decide. Tried 20, 60, 200 on the
 *  tuning halves; 20 ranked the most answers in the top 3. */
const PRIOR_CHUNKS = 20;
/** The coincidence rule (knowledge.cutoff.ts) applies to questions of at most this many meaningful
 *  words, names aside (decision 419): in a longer one an absent noun is more likely a visitor's
 *  paraphrase ("How long was the *prophet* inside the fish?") than the question's topic. */
const COINCIDENCE_MAX_WORDS = 3;

export interface RankedChunk {
  id: number;
  /** 0..1: the share of the query's weight the chunk holds (each word's BM25 part capped at
   *  that of two occurrences at average length), see the header. */
  score: number;
  /** Normalised BM25 without the cap: orders chunks of equal score. */
  raw: number;
  /** The chunk shares a single word with a question whose noun the collection lacks (knowledge.cutoff.ts). */
  coincidental: boolean;
  content: string;
  collection_id: string;
  item_id: string;
  item_name: string;
}

/** A tsquery of stemmed lexemes (letters and digits only, see queryWords), OR'ed. */
function orQuery(lexemes: string[]): string {
  return lexemes.map((l) => `'${l.replace(/['\\]/g, (c) => c + c)}'`).join(' | ');
}

interface WordStats {
  lexeme: string;
  /** The visitor's word the lexeme came from. */
  word: string;
  df: number;
  /** Stands for an absent word: weighs no more than that word would (a synonym may be of another sense). */
  synonym?: boolean;
  /** A stand-in (a spelling, synonym or neighbour of an absent word). */
  stand?: boolean;
}

/**
 * The query words' lexemes with their document frequencies, and the number of chunks. A word no
 * chunk holds is replaced by its first synonym that some chunk holds, when `synonyms` gives any
 * (knowledge.thesaurus.ts): that lexeme stands for the word, with its own rarity.
 */
async function wordStats(
  ctx: AppContext,
  ownerId: string,
  collectionIds: string[],
  config: string,
  queryWords: string[],
  synonyms: (word: string) => string[],
  neighbours: (words: string[]) => [string, string[]][],
) {
  const lookup = async (pairs: (readonly [string, string])[], from: number) => {
    const res = await sql<{ word: string; alt: string; ord: number | string; lexeme: string; df: number | string }>`
      select w.word, w.alt, w.ord, w.lexeme, coalesce((
        select sum(df) from knowledge_lexeme_counts
        where collection_id in (${sql.join(collectionIds)}) and ts_config = ${config} and lexeme = w.lexeme and owner_id = ${ownerId}
      ), 0) as df
      from (select q.word, q.alt, q.ord, l.lexeme
            from unnest(${pairs.map((p) => p[0])}::text[], ${pairs.map((p) => p[1])}::text[]) with ordinality as q(word, alt, ord)
            cross join lateral unnest(tsvector_to_array(to_tsvector(${config}::regconfig, q.alt))) as l(lexeme)
            union all select '', '', 0, '') as w(word, alt, ord, lexeme)
    `.execute(ctx.db);
    return res.rows.map((r) => ({ word: r.word, alt: r.alt, ord: from + Number(r.ord), lexeme: r.lexeme, df: Number(r.df) }));
  };
  const pairs = queryWords.flatMap((w) => [w, ...synonyms(w)].map((alt) => [w, alt] as const));
  const rows = await lookup(pairs, 0);
  // Words still without a match (nor a synonym's) get their nearest words as stand-ins, looked up
  // in a second statement only then (knowledge.paraphrase.ts).
  const held = (w: string) => rows.some((r) => r.word === w && r.df > 0);
  const lacking = queryWords.filter((w) => rows.some((r) => r.word === w && r.alt === w) && !held(w));
  const more = neighbours(lacking).flatMap(([w, alts]) => alts.map((alt) => [w, alt] as const));
  if (more.length) rows.push(...(await lookup(more, pairs.length)).filter((r) => r.lexeme !== ''));
  rows.sort((a, b) => a.ord - b.ord);
  const n = Math.max(1, rows.find((r) => r.lexeme === '')?.df ?? 0);
  const byLexeme = new Map<string, WordStats>();
  const stands: [string, (typeof rows)[number]][] = [];
  for (const word of queryWords) {
    const own = rows.filter((r) => r.word === word && r.alt === word);
    // A word the configuration drops as a stop word ("will") gets no stand-in ("leave").
    const alts = own.length === 0 || own.some((r) => r.df > 0) ? [] : rows.filter((r) => r.word === word && r.alt !== word && r.df > 0);
    // One synonym (the thesaurus's first some chunk holds), or up to NEIGHBOUR_STAND_INS nearest words
    // (decision 427): a word's neighbours are looked up only when none of its synonyms is held.
    const most = alts.length && alts[0]!.ord > pairs.length ? NEIGHBOUR_STAND_INS : 1;
    const picked: (typeof rows)[number][] = [];
    for (const r of alts) if (picked.length < most && !picked.some((p) => p.lexeme === r.lexeme)) picked.push(r);
    if (picked.length) for (const r of picked) stands.push([word, r]);
    else for (const r of own) if (!byLexeme.has(r.lexeme)) byLexeme.set(r.lexeme, { lexeme: r.lexeme, word, df: r.df });
  }
  // Stand-ins after every word the visitor wrote (decision 422): "one" → "two" must not take the
  // visitor's own "two" as a guess (weighed no more than "one", and first to lose a ranked place).
  for (const [word, r] of stands)
    if (!byLexeme.has(r.lexeme))
      byLexeme.set(r.lexeme, { lexeme: r.lexeme, word, df: r.df, synonym: !spellingVariants(word).includes(r.alt), stand: true });
  const words = [...byLexeme.values()].sort((a, b) => a.df - b.df || a.lexeme.localeCompare(b.lexeme));
  // The rarest MAX_TERM_WORDS words that some chunk holds are ranked; words no chunk holds weigh
  // only in the share's denominator and take none of those places (decision 417: in a long
  // question, "broken", "incoming", "pieces" … held every place and left out "bytes" and "split").
  // The visitor's own words take the places before stand-ins do (decision 422): a synonym or
  // neighbour is a guess, and being rare it outranked the words the visitor wrote ("pieces" →
  // "collection", "letter" → "message" left out "bytes" and "characters").
  const found = words.filter((w) => w.df > 0);
  const chosen = new Set([...found.filter((w) => !w.synonym), ...found.filter((w) => w.synonym)].slice(0, MAX_TERM_WORDS));
  const present = found.filter((w) => chosen.has(w));
  const absent = words.filter((w) => w.df === 0).slice(0, MAX_TERM_WORDS);
  return { n, words: [...absent, ...present] };
}

/** BM25's idf, capped (RARE_SHARE). */
function idfOf(n: number, df: number): number {
  const d = Math.min(df, n);
  return Math.min(Math.log(1 + (n - d + 0.5) / (d + 0.5)), MAX_IDF);
}

/** Ranks the chunks of `collectionIds` (all indexed with `config`) for the words `text`. */
export async function rankChunks(
  ctx: AppContext,
  ownerId: string,
  collectionIds: string[],
  config: string,
  queryWords: string[],
  limit: number,
  /** Who wrote what: the collection's language and the words the visitor wrote as names (knowledge.background.ts). */
  question: { language: string | null; named: Set<string> } = { language: null, named: new Set() },
): Promise<RankedChunk[]> {
  const synonyms = (w: string) =>
    hasThesaurus(question.language) && !question.named.has(w) ? [...spellingVariants(w), ...synonymsOf(w)] : [];
  // Only in a longer question: in a short one an absent noun is the topic (COINCIDENCE_MAX_WORDS).
  const long = queryWords.filter((w) => !question.named.has(w)).length > COINCIDENCE_MAX_WORDS;
  const neighbours = (lacking: string[]) =>
    long && hasThesaurus(question.language) ? nearWords(lacking.filter((w) => !question.named.has(w))) : [];
  const { n, words } = await wordStats(ctx, ownerId, collectionIds, config, queryWords, synonyms, neighbours);
  if (words.length === 0) return [];
  // The rarest words while their matches add up to at most RANK_CANDIDATES: all matches ranked.
  const rare: string[] = [];
  let total = 0;
  for (const w of words) {
    if (total + w.df > RANK_CANDIDATES) break;
    rare.push(w.lexeme);
    total += w.df;
  }
  const common = words.slice(rare.length).map((w) => w.lexeme);
  const lexemes = words.map((w) => w.lexeme);
  // A word no chunk holds only weighs in the share's denominator: see knowledge.background.ts. A
  // word some chunk holds weighs its idf with English's frequency as a prior (PRIOR_CHUNKS).
  const idfs = words.map((w) => {
    const prior = PRIOR_CHUNKS * englishChunkShare(w.word, question.named.has(w.word), question.language);
    const own = w.df === 0 ? idfOf(n, 0) : idfOf(n + PRIOR_CHUNKS, w.df + prior);
    return w.df === 0 || w.synonym ? Math.min(own, absentWeight(w.word, question.named.has(w.word), question.language, idfOf(n, 0))) : own;
  });
  // A word's several stand-ins are one group (decision 427): a chunk is credited with its best one,
  // and the group weighs once in the share's denominator, as one stand-in did. Which neighbour the
  // text uses varies ("boat" → "ship", "vessel", "ferry"); the list's order picked one of them.
  const standOf = words.map((w, i) => (w.stand ? words.findIndex((v) => v.stand && v.word === w.word) : i));
  const grouped = standOf.some((g, i) => g !== i) ? standOf : undefined;
  const idfSum = idfs.reduce((a, b, i) => (standOf[i] !== i ? a : a + (grouped ? groupMax(idfs, standOf, i) : b)), 0);
  const ids = sql.join(collectionIds);
  // Only the branches that can hold rows are written: parsing and planning this statement costs
  // more than running it for a rare phrase (issue 37), and a branch the words leave empty (no rare
  // word, or no common one) adds no row: the candidates, and their order, are the same.
  // When every word is rare and their matches are no more than the chunks re-ranked, every
  // candidate is returned anyway: their text comes with them and the read by id is saved (a rare
  // phrase then costs one statement fewer).
  const texts = common.length === 0 && total <= Math.max(limit, RERANK_CANDIDATES);
  const columns = texts ? sql`id, item_id, tsv, content, collection_id` : sql`id, item_id, tsv`;
  const matches = (terms: string[], most: number) => sql`
      select ${columns} from knowledge_chunks
      where owner_id = ${ownerId} and collection_id in (${ids}) and ts_config = ${config} and tsv @@ ${orQuery(terms)}::tsquery
      limit ${most}`;
  const notRare = (id: string) => (rare.length ? sql`${sql.ref(id)} not in (select id from rare)` : sql`true`);
  const sources = [
    ...(rare.length ? [sql`rare as materialized (${matches(rare, RANK_CANDIDATES + 1)})`] : []),
    ...(common.length
      ? [
          sql`sample as materialized (${matches(common, COMMON_SAMPLE)})`,
          sql`weighty as materialized (
      select distinct t.chunk_id as id
      from unnest(${common}::text[]) as w(lexeme)
      cross join unnest(array[${ids}]::text[]) as c(id)
      cross join lateral (
        select chunk_id from knowledge_chunk_terms
        where collection_id = c.id and ts_config = ${config} and lexeme = w.lexeme and owner_id = ${ownerId}
        order by impact desc
        limit ${Math.max(limit, TERM_CANDIDATES)}
      ) t
    )`,
        ]
      : []),
  ];
  const found = [
    ...(rare.length ? [sql`select ${columns} from rare`] : []),
    ...(common.length
      ? [
          sql`select id, item_id, tsv from sample where ${notRare('id')}`,
          sql`select k.id, k.item_id, k.tsv from weighty w join knowledge_chunks k on k.id = w.id
      where ${notRare('w.id')} and w.id not in (select id from sample)`,
        ]
      : []),
  ];
  // The tsqueries are bound values the planner sees (an unnamed statement is planned with them):
  // it reads the rare words' few matches through a bitmap and stops a scan at the sample's LIMIT.
  // The statement only finds the candidates and where the query's lexemes stand in them; the
  // scoring is done here, in the same float8 arithmetic, in the same order (issue 37: planning the
  // scoring's joins cost PGlite more than running them).
  // Without their text, the candidates come back as one value, one a line (candidatesOf): PGlite
  // copies each field of each row into an ArrayBuffer of its own and makes an object per row, most
  // of the garbage PGlite left per search (issue 37, decision 424).
  const hits = sql`ts_filter(setweight(f.tsv, 'A', ${lexemes}::text[]), '{a}')::text`;
  const res = await sql<{ id: number; len: number; hits: string; packed: string | null } & Partial<Text>>`
    with unready as materialized (
      select id from knowledge_items where owner_id = ${ownerId} and status in ('queued', 'processing')
    ), ${sql.join(sources, sql`, `)}, found as (
      ${sql.join(
        found,
        sql`
      union all
      `,
      )}
    )
    ${
      texts
        ? sql`select f.id, length(f.tsv) as len, ${hits} as hits, f.content, f.collection_id, f.item_id,
      (select i.name from knowledge_items i where i.id = f.item_id) as item_name`
        : sql`select string_agg(f.id || ' ' || length(f.tsv) || ' ' || ${hits}, E'\n') as packed`
    }
    from found f where f.item_id not in (select id from unready)
  `.execute(ctx.db);
  const max = idfSum * FULL;
  // Lexemes are unique in `words` (byLexeme).
  const index = new Map(words.map((w, i) => [w.lexeme, i]));
  const scored = scoreCandidates(
    texts
      ? res.rows.map((r) => ({ id: Number(r.id), len: Number(r.len), spots: spotsOf(r.hits) }))
      : candidatesOf(res.rows[0]?.packed ?? ''),
    index,
    idfs,
    grouped,
  ).slice(0, Math.max(limit, RERANK_CANDIDATES));
  // The collection lacks one of a short question's nouns (not a name, no stand-in): knowledge.cutoff.ts.
  const lacksNoun =
    queryWords.filter((w) => !question.named.has(w)).length <= COINCIDENCE_MAX_WORDS &&
    hasThesaurus(question.language) &&
    words.some((w) => w.df === 0 && !question.named.has(w.word) && isNoun(w.word));
  // Each word's group: the first word of the same visitor word (a synonym counts for its word).
  const groupOf = words.map((w) => words.findIndex((v) => v.word === w.word));
  const ranked = scored.map((r) => {
    const share = max > 0 ? r.covered / max : 0;
    // A word counts in the window as it counts in `covered` (its capped BM25 part), so near ≤ share.
    const norm = K1 * (1 - B + (B * r.len) / r.avglen);
    const group: number[] = [];
    const weight: number[] = [];
    let first = -1;
    let several = false;
    for (const spot of r.spots) {
      const i = index.get(spot.lexeme);
      const tf = spot.positions.length;
      group.push(i === undefined ? -1 : groupOf[i]!);
      weight.push(i === undefined ? 0 : idfs[i]! * Math.min((tf * (K1 + 1)) / (tf + norm), FULL));
      if (i === undefined) continue;
      if (first < 0) first = groupOf[i]!;
      else if (groupOf[i] !== first) several = true;
    }
    const near = max > 0 ? nearestWindow(r.spots, group, weight) / max : 0;
    return {
      id: r.id,
      coincidental: lacksNoun && !several,
      score: share * (1 - NEAR_SHARE) + near * NEAR_SHARE,
      raw: max > 0 ? r.raw / max : 0,
    };
  });
  const best = ranked.sort((a, b) => b.score - a.score || b.raw - a.raw || a.id - b.id).slice(0, limit);
  if (!texts) return withText(ctx, best);
  const byId = new Map(res.rows.map((r) => [Number(r.id), r as Text]));
  return best.map((c) => withTextOf(c, byId.get(c.id)!));
}

interface Text {
  content: string;
  collection_id: string;
  item_id: string;
  item_name: string;
}

/** A ranked chunk with its text: written out, where spreading both made a slow, larger object. */
const withTextOf = (c: Omit<RankedChunk, keyof Text>, r: Text): RankedChunk => ({
  id: c.id,
  score: c.score,
  raw: c.raw,
  coincidental: c.coincidental,
  content: r.content,
  collection_id: r.collection_id,
  item_id: r.item_id,
  item_name: r.item_name,
});

/** The best chunks' text and item, read by id once they are known (a few rows). */
async function withText(ctx: AppContext, chunks: Omit<RankedChunk, keyof Text>[]): Promise<RankedChunk[]> {
  if (chunks.length === 0) return [];
  // The item's name by its key, row by row: a join let the planner hash every item of the account.
  const { rows } = await sql<Text & { id: number }>`
    select k.id, k.content, k.collection_id, k.item_id, (select i.name from knowledge_items i where i.id = k.item_id) as item_name
    from knowledge_chunks k where k.id = any(${chunks.map((c) => c.id)}::bigint[])
  `.execute(ctx.db);
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  // A chunk deleted between the two statements is left out.
  return chunks.flatMap((c) => {
    const r = byId.get(c.id);
    return r ? [withTextOf(c, r)] : [];
  });
}
