// Embeddings for hybrid search: an OpenAI-compatible API (POST {EMBEDDING_BASE_URL}/embeddings,
// {model, input: [...]}) reached through the outbound guard. Used only when it is configured
// AND the database has pgvector with the embeddings table (migration 0401); otherwise every
// path is full-text only (docs/decisions/400).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { DB } from '../../db/schema';

const EMBED_BATCH = 32;
const ready = new WeakMap<object, Promise<boolean>>();

export function embeddingModel(ctx: AppContext): string | null {
  const { EMBEDDING_BASE_URL, EMBEDDING_MODEL } = ctx.config;
  return EMBEDDING_BASE_URL && EMBEDDING_MODEL ? EMBEDDING_MODEL : null;
}

/** Whether vectors are stored and searched in this process. */
export function vectorSearchReady(ctx: AppContext): Promise<boolean> {
  if (!embeddingModel(ctx) || !ctx.database.hasVector) return Promise.resolve(false);
  let found = ready.get(ctx.db);
  if (!found) {
    found = sql<{ t: string | null }>`select to_regclass('knowledge_embeddings')::text as t`
      .execute(ctx.db)
      .then((r) => Boolean(r.rows[0]?.t))
      .catch(() => false);
    ready.set(ctx.db, found);
  }
  return found;
}

interface EmbeddingsAnswer {
  data?: { index?: number; embedding?: unknown }[];
}

/** One vector per text, in order. Throws on any failure (the caller decides what it means). */
export async function embed(ctx: AppContext, texts: string[]): Promise<number[][]> {
  const model = embeddingModel(ctx);
  if (!model) throw new Error('no embedding provider configured');
  const base = ctx.config.EMBEDDING_BASE_URL!.replace(/\/$/, '');
  const out: number[][] = [];
  for (let i = 0; i < texts.length; i += EMBED_BATCH) {
    const batch = texts.slice(i, i + EMBED_BATCH);
    // Safe to repeat (the same texts give the same vectors): retried on 429/5xx (decision 010).
    const res = await ctx.outbound.fetchIdempotent('Embedding provider', `${base}/embeddings`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(ctx.config.EMBEDDING_API_KEY ? { authorization: `Bearer ${ctx.config.EMBEDDING_API_KEY}` } : {}),
      },
      body: JSON.stringify({ model, input: batch }),
      timeoutMs: 30_000,
      maxBytes: 32 * 1024 * 1024,
    });
    if (res.status !== 200) throw new Error(`embedding provider answered HTTP ${res.status}`);
    const data = res.json<EmbeddingsAnswer>().data ?? [];
    if (data.length !== batch.length) throw new Error('embedding provider answered the wrong number of vectors');
    const sorted = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    for (const d of sorted) {
      const v = d.embedding;
      if (!Array.isArray(v) || v.length === 0 || v.length > 16_000 || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw new Error('embedding provider answered an invalid vector');
      }
      out.push(v as number[]);
    }
  }
  return out;
}

export function vectorLiteral(v: number[]): string {
  return `[${v.join(',')}]`;
}

/** Stores the vectors of freshly written chunks. */
export async function storeEmbeddings(
  db: Kysely<DB> | Transaction<DB>,
  model: string,
  rows: { chunkId: number; ownerId: string; collectionId: string; vector: number[] }[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 100) {
    const batch = rows.slice(i, i + 100);
    await db
      .insertInto('knowledge_embeddings')
      .values(
        batch.map((r) => ({
          chunk_id: r.chunkId,
          owner_id: r.ownerId,
          collection_id: r.collectionId,
          model,
          embedding: sql`${vectorLiteral(r.vector)}::vector`,
        })),
      )
      .onConflict((oc) => oc.column('chunk_id').doNothing())
      .execute();
  }
}
