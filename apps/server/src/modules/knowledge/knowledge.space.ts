// Disk space after knowledge is deleted (issue 21, decision 220). PGlite runs PostgreSQL in
// single-user mode: no autovacuum and no checkpointer, so the rows of a deleted collection (its
// chunks, their impact rows and vectors) stayed in the files for good and the WAL of the delete
// was never recycled. After a delete the server vacuums the knowledge tables (their free space is
// reused and empty pages at their end go back to the file system), then checkpoints. On
// PostgreSQL autovacuum does this; nothing runs there.
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context';
import { inBackground } from '../../db/pglite-gate';
import type { DB } from '../../db/schema';
import { checkpoint } from '../../db/wal';
import { vacuumTables } from './knowledge.repository';

/** Every table a collection's delete empties rows of (the cascade of knowledge_collections). */
export const KNOWLEDGE_TABLES = [
  'knowledge_chunk_terms',
  'knowledge_embeddings',
  'knowledge_chunks',
  'knowledge_items',
  'knowledge_lexeme_counts',
  'knowledge_collections',
] as const;

/** A delay after a delete, so several deletes in a row are vacuumed once. */
export const RECLAIM_DELAY_MS = 2000;

export async function reclaimKnowledgeSpace(db: Kysely<DB>): Promise<void> {
  // One table per statement: a request waiting for the connection goes between two (decision 222).
  for (const table of KNOWLEDGE_TABLES) await vacuumTables(db, [table]);
  await checkpoint(db);
}

const pending = new WeakMap<AppContext, { timer: NodeJS.Timeout; running: Promise<void> | null }>();

/** On PGlite: reclaims the space of deleted knowledge shortly after (one run for a burst of
 *  deletes). Failures are logged, never thrown: the delete itself has already succeeded. */
export function scheduleKnowledgeReclaim(ctx: AppContext): void {
  if (ctx.database.kind !== 'pglite' || pending.has(ctx)) return;
  const timer = setTimeout(() => {
    const entry = pending.get(ctx);
    if (!entry) return;
    entry.running = inBackground(() => reclaimKnowledgeSpace(ctx.db))
      .catch((err: unknown) => ctx.log.warn({ err }, 'reclaiming knowledge space failed'))
      .finally(() => pending.delete(ctx));
  }, RECLAIM_DELAY_MS);
  timer.unref();
  pending.set(ctx, { timer, running: null });
}

/** Runs a scheduled reclaim now (tests, shutdown); resolves when none is left. */
export async function flushKnowledgeReclaim(ctx: AppContext): Promise<void> {
  const entry = pending.get(ctx);
  if (!entry) return;
  if (entry.running) return entry.running;
  clearTimeout(entry.timer);
  pending.delete(ctx);
  await reclaimKnowledgeSpace(ctx.db);
}
