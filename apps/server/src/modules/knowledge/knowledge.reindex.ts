// Background re-indexing of a collection's chunks (docs/decisions/407): after the migration that
// put item names into the chunks' text and detects languages, after a detected language, and
// after the user changes a collection's language. Never at start-up and never in one long
// statement: short batches rewritten by id, each its own statement, sized by time and followed by
// a pause on PGlite (as ingestion does, decisions 406 and 222). Until a collection is done, search looks in both the old
// configuration (reindex_from) and the new one.
import type { AppContext } from '../../context';
import { pauseAfter, TimeBatches } from '../../db/background-batches';
import * as q from './knowledge-reindex.repository';
import { detectLanguage, effectiveLanguage, textSearchConfig } from './knowledge.language';

/** Chunks written by this version index the item's name with the detected language's stemming. */
export const KNOWLEDGE_INDEX_VERSION = 1;
/** Rows per statement on PostgreSQL, and the most on PGlite. */
const BATCH_ROWS = 100;

/** A collection of no chosen language takes the detected language of its first text. */
export async function detectCollectionLanguage(ctx: AppContext, collectionId: string, text: string): Promise<void> {
  const c = await q.findCollectionLanguage(ctx.db, collectionId);
  if (!c || c.language || c.detected_language) return;
  const code = detectLanguage(text);
  if (!code) return;
  await q.setDetectedLanguage(ctx.db, collectionId, code, await q.hasChunks(ctx.db, collectionId));
}

/** Re-indexes one collection that waits for it; answers whether there was one. */
export async function reindexNext(ctx: AppContext, isStopped: () => boolean = () => false): Promise<boolean> {
  const c = await q.nextCollectionToReindex(ctx.db, KNOWLEDGE_INDEX_VERSION);
  if (!c) return false;
  if (!c.language && !c.detected_language) {
    const code = detectLanguage(await q.sampleText(ctx.db, c.id));
    if (code) {
      await q.storeDetectedLanguage(ctx.db, c.id, code);
      c.detected_language = code;
    }
  }
  const config = await textSearchConfig(ctx.db, effectiveLanguage(c));
  await q.setReindexFrom(ctx.db, c.id, await q.otherConfig(ctx.db, c.id, config));
  const pglite = ctx.database.kind === 'pglite';
  const sizes = new TimeBatches(BATCH_ROWS, undefined, pglite ? 4 : BATCH_ROWS);
  for (let after = 0; ;) {
    if (isStopped()) return false;
    const started = performance.now();
    const ids = await q.reindexBatch(ctx.db, c.id, config, after, sizes.size);
    if (ids.length === 0) break;
    after = Math.max(...ids);
    if (!pglite) continue;
    const took = performance.now() - started;
    sizes.took(ids.length, took);
    await pauseAfter(took, ctx.database.gate);
  }
  await q.markReindexed(ctx.db, c.id, KNOWLEDGE_INDEX_VERSION, c.updated_at);
  return true;
}
