// Queries of the vector back-fill (knowledge.backfill.ts, docs/decisions/409).
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema';

export interface BackfillClaim {
  id: string;
  owner_id: string;
  after: number;
}

/** Takes one collection whose chunks lack vectors of `model` and that no worker holds, holding it
 *  until `until`: one conditional UPDATE over a row locked with SKIP LOCKED, so two workers never
 *  take the same collection. */
export async function claimCollection(db: Kysely<DB>, model: string, now: Date, until: Date): Promise<BackfillClaim | undefined> {
  const res = await sql<{ id: string; owner_id: string; vectors_after: number | string }>`
    update knowledge_collections set vectors_lease_until = ${until}
    where id = (
      select id from knowledge_collections
      where vectors_model is distinct from ${model} and (vectors_lease_until is null or vectors_lease_until <= ${now})
      order by id limit 1 for update skip locked
    ) and (vectors_lease_until is null or vectors_lease_until <= ${now})
    returning id, owner_id, vectors_after
  `.execute(db);
  const row = res.rows[0];
  return row ? { id: row.id, owner_id: row.owner_id, after: Number(row.vectors_after) } : undefined;
}

/** The next chunks after `after` of the collection's ready items without a vector of `model`. */
export async function chunksWithoutVectors(db: Kysely<DB>, collectionId: string, model: string, after: number, limit: number) {
  const res = await sql<{ id: number | string; content: string }>`
    select k.id, k.content from knowledge_chunks k join knowledge_items i on i.id = k.item_id
    where k.collection_id = ${collectionId} and k.id > ${after} and i.status = 'ready'
      and not exists (select 1 from knowledge_embeddings e where e.chunk_id = k.id and e.model = ${model})
    order by k.id limit ${limit}
  `.execute(db);
  return res.rows.map((r) => ({ id: Number(r.id), content: r.content }));
}

/** Stores (or replaces, from another model) the vectors of chunks that still exist. */
export async function upsertVectors(
  db: Kysely<DB>,
  owner: string,
  collectionId: string,
  model: string,
  rows: { id: number; vector: string }[],
) {
  if (rows.length === 0) return;
  await sql`
    insert into knowledge_embeddings (chunk_id, owner_id, collection_id, model, embedding)
    select k.id, ${owner}, ${collectionId}, ${model}, v.embedding::vector
    from unnest(${rows.map((r) => r.id)}::bigint[], ${rows.map((r) => r.vector)}::text[]) as v(chunk_id, embedding)
    join knowledge_chunks k on k.id = v.chunk_id and k.collection_id = ${collectionId}
    on conflict (chunk_id) do update set model = excluded.model, embedding = excluded.embedding
  `.execute(db);
}

/** Records progress and lets go (or keeps the lease until `until`, to wait after a failure). */
export async function release(db: Kysely<DB>, collectionId: string, patch: { after?: number; model?: string; until?: Date | null }) {
  await db
    .updateTable('knowledge_collections')
    .set({
      vectors_lease_until: patch.until ?? null,
      ...(patch.after !== undefined ? { vectors_after: patch.after } : {}),
      ...(patch.model !== undefined ? { vectors_model: patch.model, vectors_after: 0 } : {}),
    })
    .where('id', '=', collectionId)
    .execute();
}

/** Some chunks of the collection may lack vectors (an item embedded without success): the
 *  back-fill goes over it again from its start. */
export async function markIncomplete(db: Kysely<DB>, collectionId: string) {
  await db.updateTable('knowledge_collections').set({ vectors_model: null, vectors_after: 0 }).where('id', '=', collectionId).execute();
}
