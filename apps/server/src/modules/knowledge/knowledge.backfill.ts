// Vectors for chunks that have none (docs/decisions/409): items stored before EMBEDDING_BASE_URL
// was set, after the model changed, or whose embedding failed at ingestion. The knowledge worker
// calls backfillNext between its other jobs: it takes one collection (a lease, so no two
// processes embed the same chunks), embeds the next BACKFILL_BATCH chunks after its cursor
// through the outbound guard (embed()), stores them and moves the cursor, so an interrupted
// back-fill resumes where it stopped. A collection with nothing left after its cursor records the
// model as complete. A failing provider keeps the lease for BACKFILL_RETRY_MS: nothing loops.
import type { AppContext } from '../../context';
import { embed, embeddingModel, vectorLiteral, vectorSearchReady } from './knowledge.embeddings';
import * as q from './knowledge-vectors.repository';

/** Chunks embedded per step (two requests of 32 texts). */
const BACKFILL_BATCH = 64;
/** How long one worker holds a collection for one step. */
const BACKFILL_LEASE_MS = 2 * 60 * 1000;
/** After a failed step, the collection waits this long before another try. */
export const BACKFILL_RETRY_MS = 60 * 1000;

/** One step of the back-fill; answers whether it embedded or finished anything. */
export async function backfillNext(ctx: AppContext, opts: { batch?: number } = {}): Promise<boolean> {
  const model = embeddingModel(ctx);
  if (!model || !(await vectorSearchReady(ctx))) return false;
  const now = ctx.now();
  const claim = await q.claimCollection(ctx.db, model, now, new Date(now.getTime() + BACKFILL_LEASE_MS));
  if (!claim) return false;
  try {
    const chunks = await q.chunksWithoutVectors(ctx.db, claim.id, model, claim.after, opts.batch ?? BACKFILL_BATCH);
    if (chunks.length === 0) {
      await q.release(ctx.db, claim.id, { model });
      return true;
    }
    const vectors = await embed(
      ctx,
      chunks.map((c) => c.content),
    );
    await q.upsertVectors(
      ctx.db,
      claim.owner_id,
      claim.id,
      model,
      chunks.map((c, i) => ({ id: c.id, vector: vectorLiteral(vectors[i]!) })),
    );
    await q.release(ctx.db, claim.id, { after: chunks[chunks.length - 1]!.id });
    return true;
  } catch (err) {
    ctx.log.warn({ collectionId: claim.id, err: (err as Error).message }, 'vector back-fill failed; retried later');
    await q.release(ctx.db, claim.id, { until: new Date(ctx.now().getTime() + BACKFILL_RETRY_MS) });
    return false;
  }
}

/** Whether a collection's chunks are still being given vectors (the portal says so). */
export function backfilling(model: string | null, row: { vectors_model?: string | null }): boolean {
  return model !== null && row.vectors_model !== undefined && row.vectors_model !== model;
}
