// Retrieval (POST /kb/v1/search; also what the conversation runtime calls). Full-text first:
// the matching chunks are found through the GIN index, and only a bounded candidate set of them
// is ranked (ranking every match of a common word costs tens of milliseconds at 100k chunks:
// design/references.md; bench/knowledge-search.ts measures it): the first matches, and, for a
// word in more chunks than that, the chunks where it weighs most (docs/decisions/604). All query words must match
// first; when that finds fewer than top_k chunks, any word may. With embeddings configured and
// pgvector present, a vector search runs too and both lists are fused by reciprocal rank. Chunks
// of an item still being ingested (written in batches, docs/decisions/406) are never candidates.
import { sql } from 'kysely';
import { SEARCH_TOP_K_DEFAULT, type SearchHit, type SearchRequest } from '@parla/shared/schemas/knowledge';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { embed, embeddingModel, vectorLiteral, vectorSearchReady } from './knowledge.embeddings';
import { textSearchConfig } from './knowledge.language';
import * as repo from './knowledge.repository';

/** How many matches, in the index's order, are ranked per query form (see the header). */
export const RANK_CANDIDATES = 400;
/** Per query word and collection, the chunks of highest impact added when there are more matches. */
export const TERM_CANDIDATES = 50;
/** Query words that bring impact candidates (an any-word query may have 32 words). */
const MAX_TERM_WORDS = 8;
const VECTOR_CANDIDATES = 50;
const RRF_K = 60;

interface Ranked {
  id: number;
  score: number;
}

/** A ranked chunk with what the answer shows (full-text ranking reads it in the same query). */
interface Chunk {
  id: number;
  content: string;
  collection_id: string;
  item_id: string;
  item_name: string;
}

/** Query words for the any-word form: letters and digits only, so nothing is tsquery syntax. */
export function anyWordQuery(text: string): string | null {
  const words = [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, 32);
  return words.length ? words.join(' | ') : null;
}

/**
 * Ranks the chunks matching `tsquery` among the owner's collections: the first RANK_CANDIDATES
 * matches the GIN index returns and, when there are more matches than that, for each query word
 * the chunks where it weighs most (knowledge_chunk_terms, docs/decisions/604).
 */
async function rankFullText(
  ctx: AppContext,
  ownerId: string,
  collectionIds: string[],
  config: string,
  form: 'all' | 'any',
  text: string,
  limit: number,
): Promise<(Ranked & Chunk)[]> {
  const tsq = form === 'all' ? sql`websearch_to_tsquery(${config}::regconfig, ${text})` : sql`to_tsquery(${config}::regconfig, ${text})`;
  // The matches are planned as if all were wanted (a materialized CTE is planned on its own, so
  // the LIMIT does not tempt the planner into testing each row's compressed tsvector in a scan
  // of the table or of the collection index) and read lazily: only the first RANK_CANDIDATES + 1
  // are fetched. When that is all of them, every match is ranked. Otherwise the first ones are
  // in physical order, not by relevance, so each query word's highest-impact chunks (more
  // occurrences, shorter chunk: ts_rank's order for that word) join the candidates; they are
  // still filtered by the query and ranked by the same ts_rank. bench/knowledge-search.ts
  // compares this with ranking every match.
  const res = await sql<Ranked & Chunk>`
    with unready as materialized (
      select id from knowledge_items where owner_id = ${ownerId} and status in ('queued', 'processing')
    ), matches as materialized (
      select id, tsv from knowledge_chunks
      where owner_id = ${ownerId} and collection_id in (${sql.join(collectionIds)}) and ts_config = ${config}
        and tsv @@ ${tsq} and item_id not in (select id from unready)
    ), firsts as materialized (
      select id, tsv from matches limit ${RANK_CANDIDATES + 1}
    ), words as materialized (
      select w.lexeme from unnest(tsvector_to_array(to_tsvector(${config}::regconfig, ${text}))) as w(lexeme) limit ${MAX_TERM_WORDS}
    ), weighty as (
      select distinct t.chunk_id as id
      from words w
      cross join unnest(array[${sql.join(collectionIds)}]::text[]) as c(id)
      cross join lateral (
        select chunk_id from knowledge_chunk_terms
        where collection_id = c.id and ts_config = ${config} and lexeme = w.lexeme and owner_id = ${ownerId}
        order by impact desc
        limit ${Math.max(limit, TERM_CANDIDATES)}
      ) t
      where (select count(*) from firsts) > ${RANK_CANDIDATES}
    ), candidates as (
      select id, tsv from firsts
      union all
      select k.id, k.tsv from knowledge_chunks k join weighty w on w.id = k.id
      where k.tsv @@ ${tsq} and not exists (select 1 from firsts f where f.id = k.id) and k.item_id not in (select id from unready)
    ), ranked as (
      select c.id, ts_rank(c.tsv, q.query, 1 | 32)::float8 as score
      from candidates c, (select ${tsq} as query) q
      order by score desc, c.id
      limit ${limit}
    )
    select r.id, r.score, k.content, k.collection_id, i.id as item_id, i.name as item_name
    from ranked r
    join knowledge_chunks k on k.id = r.id
    join knowledge_items i on i.id = k.item_id
    order by r.score desc, r.id
  `.execute(ctx.db);
  return res.rows.map((r) => ({ ...r, id: Number(r.id), score: Number(r.score) }));
}

/** Up to `want` ranked chunks; the any-word form runs only when all-words found fewer than topK. */
async function fullText(ctx: AppContext, ownerId: string, groups: Map<string, string[]>, query: string, topK: number, want: number): Promise<(Ranked & Chunk)[]> {
  const hits: (Ranked & Chunk)[] = [];
  for (const [config, ids] of groups) hits.push(...(await rankFullText(ctx, ownerId, ids, config, 'all', query, want)));
  hits.sort((a, b) => b.score - a.score);
  if (hits.length >= topK) return hits.slice(0, want);
  const any = anyWordQuery(query);
  if (!any) return hits;
  const seen = new Set(hits.map((h) => h.id));
  const more: (Ranked & Chunk)[] = [];
  for (const [config, ids] of groups) more.push(...(await rankFullText(ctx, ownerId, ids, config, 'any', any, want)));
  more.sort((a, b) => b.score - a.score);
  // Chunks with every word come first; any-word chunks fill the rest.
  return [...hits, ...more.filter((m) => !seen.has(m.id))].slice(0, want);
}

async function vectorHits(ctx: AppContext, ownerId: string, collectionIds: string[], query: string): Promise<Ranked[]> {
  const [vector] = await embed(ctx, [query]);
  const res = await sql<{ id: number; dist: number }>`
    select e.chunk_id as id, (e.embedding <=> ${vectorLiteral(vector!)}::vector)::float8 as dist
    from knowledge_embeddings e
    where e.owner_id = ${ownerId} and e.collection_id in (${sql.join(collectionIds)}) and e.model = ${embeddingModel(ctx)}
      and vector_dims(e.embedding) = ${vector!.length}
      and e.chunk_id not in (
        select k.id from knowledge_chunks k join knowledge_items i on i.id = k.item_id
        where i.owner_id = ${ownerId} and i.status in ('queued', 'processing')
      )
    order by dist
    limit ${VECTOR_CANDIDATES}
  `.execute(ctx.db);
  return res.rows.map((r) => ({ id: Number(r.id), score: 1 - Number(r.dist) }));
}

export async function searchChunks(ctx: AppContext, ownerId: string, input: SearchRequest): Promise<SearchHit[]> {
  const ids = [...new Set(input.collection_ids)];
  const collections = await repo.findCollections(ctx.db, ownerId, ids);
  if (collections.length !== ids.length) throw AppError.notFound('Collection');
  const topK = input.top_k ?? SEARCH_TOP_K_DEFAULT;

  const groups = new Map<string, string[]>();
  for (const c of collections) {
    const config = await textSearchConfig(ctx.db, c.language);
    groups.set(config, [...(groups.get(config) ?? []), c.id]);
  }

  const vectors = await vectorSearchReady(ctx);
  // Fusion needs a longer full-text list than the answer; without vectors topK is enough.
  const textHits = await fullText(ctx, ownerId, groups, input.query, topK, vectors ? Math.max(topK, VECTOR_CANDIDATES) : topK);
  let vecHits: Ranked[] = [];
  if (vectors) {
    try {
      vecHits = await vectorHits(ctx, ownerId, ids, input.query);
    } catch (err) {
      ctx.log.warn({ err: (err as Error).message }, 'vector search failed; full-text only');
    }
  }

  let ranked: { id: number; score: number; match: SearchHit['match'] }[];
  if (vecHits.length === 0) {
    ranked = textHits.slice(0, topK).map((h) => ({ ...h, match: 'fulltext' as const }));
  } else {
    // Reciprocal rank fusion; 1.0 = first in both lists.
    const fused = new Map<number, { score: number; text: boolean; vec: boolean }>();
    textHits.forEach((h, i) => fused.set(h.id, { score: 1 / (RRF_K + i + 1), text: true, vec: false }));
    vecHits.forEach((h, i) => {
      const f = fused.get(h.id) ?? { score: 0, text: false, vec: false };
      fused.set(h.id, { score: f.score + 1 / (RRF_K + i + 1), text: f.text, vec: true });
    });
    const best = 2 / (RRF_K + 1);
    ranked = [...fused.entries()]
      .sort((a, b) => b[1].score - a[1].score)
      .slice(0, topK)
      .map(([id, f]) => ({ id, score: f.score / best, match: f.text && f.vec ? 'hybrid' : f.text ? 'fulltext' : 'vector' }));
  }
  if (ranked.length === 0) return [];

  // Full-text hits carry their text; vector-only hits are read now.
  const byId = new Map<number, Chunk>(textHits.map((h) => [h.id, h]));
  const missing = ranked.map((r) => r.id).filter((id) => !byId.has(id));
  if (missing.length) {
    const rows = await ctx.db
      .selectFrom('knowledge_chunks as c')
      .innerJoin('knowledge_items as i', 'i.id', 'c.item_id')
      .select(['c.id', 'c.content', 'c.collection_id', 'i.id as item_id', 'i.name as item_name'])
      .where('c.owner_id', '=', ownerId)
      .where('c.id', 'in', missing)
      .execute();
    for (const r of rows) byId.set(Number(r.id), { ...r, id: Number(r.id) });
  }
  return ranked.flatMap((r) => {
    const row = byId.get(r.id);
    if (!row) return [];
    return [{ item_id: row.item_id, item_name: row.item_name, collection_id: row.collection_id, text: row.content, score: Math.round(r.score * 10000) / 10000, match: r.match }];
  });
}
