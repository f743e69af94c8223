// Retrieval (POST /kb/v1/search; also what the conversation runtime calls). Full-text ranking
// is BM25-like over the query's meaningful words within a bounded candidate set
// (knowledge-rank.repository.ts; docs/decisions/400, 604, 407). With embeddings configured and pgvector
// present, a vector search runs too and both lists are fused by reciprocal rank. Then the
// relevance cut-off: a passage is kept only when its score clears the floor (the caller's or the
// default threshold, lower for a longer question: knowledge.cutoff.ts) and a share of the best
// score, and is not coincidental (one word shared with a question whose noun the collection
// lacks, decision 418); identical passages (the
// same text stored twice) count once. Nothing clearing it is an empty answer, which the runtime
// tells the model as "no relevant knowledge". Chunks of items still being ingested (decision
// 406) are never candidates.
import { sql } from 'kysely';
import {
  SEARCH_RELATIVE_CUTOFF,
  SEARCH_SCORE_THRESHOLD_DEFAULT,
  SEARCH_TOP_K_DEFAULT,
  type SearchHit,
  type SearchRequest,
} from '@parla/shared/schemas/knowledge';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { embed, embeddingModel, vectorLiteral, vectorSearchReady } from './knowledge.embeddings';
import { effectiveLanguage, textSearchConfig } from './knowledge.language';
import { namedWords } from './knowledge.background';
import { meaningfulWords } from './knowledge.query';
import { rankChunks, type RankedChunk } from './knowledge-rank.repository';
import { relevanceFloor } from './knowledge.cutoff';
import { hasText, sameText } from './knowledge.same-text';
import * as repo from './knowledge.repository';

export { RANK_CANDIDATES, TERM_CANDIDATES } from './knowledge-rank.repository';

const VECTOR_CANDIDATES = 50;
const RRF_K = 60;
/** A vector-only passage is kept when its cosine similarity reaches this. */
export const VECTOR_MIN_SIMILARITY = 0.5;

interface Group {
  config: string;
  language: string | null;
  ids: string[];
}

/** The (configuration, collections) pairs to search: a collection being re-indexed is in two. */
async function searchGroups(ctx: AppContext, collections: Awaited<ReturnType<typeof repo.findCollections>>): Promise<Group[]> {
  const groups = new Map<string, Group>();
  const add = (config: string, language: string | null, id: string) => {
    const g = groups.get(config) ?? { config, language, ids: [] };
    if (!g.ids.includes(id)) g.ids.push(id);
    groups.set(config, g);
  };
  for (const c of collections) {
    const language = effectiveLanguage(c);
    add(await textSearchConfig(ctx.db, language), language, c.id);
    if (c.reindex_from) add(c.reindex_from, language, c.id);
  }
  return [...groups.values()];
}

async function vectorHits(
  ctx: AppContext,
  ownerId: string,
  collectionIds: string[],
  query: string,
): Promise<{ id: number; score: number }[]> {
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

interface Scored {
  id: number;
  score: number;
  match: SearchHit['match'];
  rrf: number;
}

export async function searchChunks(ctx: AppContext, ownerId: string, input: SearchRequest): Promise<SearchHit[]> {
  const ids = [...new Set(input.collection_ids)];
  const collections = await repo.findCollections(ctx.db, ownerId, ids);
  if (collections.length !== ids.length) throw AppError.notFound('Collection');
  const topK = input.top_k ?? SEARCH_TOP_K_DEFAULT;
  const threshold = input.score_threshold ?? SEARCH_SCORE_THRESHOLD_DEFAULT;

  const vectors = await vectorSearchReady(ctx);
  const want = vectors ? Math.max(topK, VECTOR_CANDIDATES) : Math.max(topK * 2, 10);
  const textHits: RankedChunk[] = [];
  let floor = threshold;
  for (const g of await searchGroups(ctx, collections)) {
    const words = meaningfulWords(input.query, g.language);
    floor = Math.min(floor, relevanceFloor(threshold, input.query, words));
    const question = { language: g.language, named: namedWords(input.query) };
    if (words.length) textHits.push(...(await rankChunks(ctx, ownerId, g.ids, g.config, words, want, question)));
  }
  textHits.sort((a, b) => b.score - a.score || b.raw - a.raw || a.id - b.id);

  let vecHits: { id: number; score: number }[] = [];
  if (vectors) {
    try {
      vecHits = await vectorHits(ctx, ownerId, ids, input.query);
    } catch (err) {
      ctx.log.warn({ err: (err as Error).message }, 'vector search failed; full-text only');
    }
  }

  // Fused by reciprocal rank; each passage keeps its own evidence (text score, similarity).
  const fused = new Map<number, Scored & { text?: number; vec?: number; lone?: boolean }>();
  // A coincidental passage (knowledge.cutoff.ts) is no text evidence: only its vector can keep it.
  // A threshold of 0 turns the whole cut-off off, this rule with it.
  textHits.forEach((h, i) =>
    fused.set(h.id, {
      id: h.id,
      score: 0,
      match: 'fulltext',
      rrf: 1 / (RRF_K + i + 1),
      text: h.score,
      lone: h.coincidental && threshold > 0,
    }),
  );
  vecHits.forEach((h, i) => {
    const f = fused.get(h.id);
    if (f) fused.set(h.id, { ...f, match: 'hybrid', rrf: f.rrf + 1 / (RRF_K + i + 1), vec: h.score });
    else fused.set(h.id, { id: h.id, score: 0, match: 'vector', rrf: 1 / (RRF_K + i + 1), vec: h.score });
  });
  const passes = (f: { text?: number; vec?: number; lone?: boolean }) =>
    (!f.lone && (f.text ?? 0) >= floor) || (f.vec ?? 0) >= Math.max(threshold, VECTOR_MIN_SIMILARITY);
  const order = [...fused.values()].sort((a, b) => b.rrf - a.rrf || a.id - b.id);
  const best = Math.max(0, ...order.map((f) => (f.lone ? 0 : (f.text ?? 0))));
  const kept = order
    .filter((f) => passes(f) && (f.text === undefined || f.vec !== undefined || f.text >= best * SEARCH_RELATIVE_CUTOFF))
    .map((f) => ({ ...f, score: f.text ?? f.vec ?? 0 }));
  if (kept.length === 0) return [];

  // Full-text hits carry their text; vector-only hits are read now.
  const byId = new Map<number, Omit<RankedChunk, 'score' | 'raw' | 'coincidental'>>(textHits.map((h) => [h.id, h]));
  const missing = kept.map((r) => r.id).filter((id) => !byId.has(id));
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
  const out: SearchHit[] = [];
  for (const r of kept) {
    const row = byId.get(r.id);
    // Identical passages but for whitespace count once (compared in place: knowledge.same-text.ts).
    if (!row || !hasText(row.content) || out.some((o) => sameText(o.text, row.content))) continue;
    out.push({
      item_id: row.item_id,
      item_name: row.item_name,
      collection_id: row.collection_id,
      text: row.content,
      score: Math.round(Math.min(1, r.score) * 10000) / 10000,
      match: r.match,
    });
    if (out.length === topK) break;
  }
  return out;
}
