// The ranking before issue 15, kept for bench/knowledge-quality.ts to measure against in the same
// run: the collection's default configuration ('simple': "Any language (no stemming)"), chunk
// text without the item's name, ts_rank(…, 1|32) with every query word required first and any
// word when fewer than top_k chunks have them all, and always top_k passages, however weak.
// On a collection this small every match is ranked, which is what the bounded candidate set of
// decisions 400/604 did too below 400 matches.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../apps/server/src/db/schema';

interface Hit {
  id: number;
  item_name: string;
  content: string;
}

function anyWordQuery(text: string): string | null {
  const words = [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, 32);
  return words.length ? words.join(' | ') : null;
}

async function rank(db: Kysely<DB>, collectionId: string, form: 'all' | 'any', text: string, limit: number): Promise<Hit[]> {
  const tsq = form === 'all' ? sql`websearch_to_tsquery('simple', ${text})` : sql`to_tsquery('simple', ${text})`;
  const res = await sql<Hit & { score: number }>`
    select k.id, i.name as item_name, k.content, ts_rank(k.tsv, q.query, 1 | 32) as score
    from knowledge_chunks k join knowledge_items i on i.id = k.item_id, (select ${tsq} as query) q
    where k.collection_id = ${collectionId} and k.tsv @@ q.query
    order by score desc, k.id
    limit ${limit}
  `.execute(db);
  return res.rows;
}

export async function previousSearch(db: Kysely<DB>, collectionId: string, query: string, topK: number): Promise<Hit[]> {
  const hits = await rank(db, collectionId, 'all', query, topK);
  if (hits.length >= topK) return hits;
  const any = anyWordQuery(query);
  if (!any) return hits;
  const seen = new Set(hits.map((h) => h.id));
  return [...hits, ...(await rank(db, collectionId, 'any', any, topK)).filter((h) => !seen.has(h.id))].slice(0, topK);
}

/** A copy of a collection's chunks indexed as before: 'simple', the chunk's text only. */
export async function copyAsPrevious(db: Kysely<DB>, ownerId: string, from: string, to: string): Promise<void> {
  await db
    .insertInto('knowledge_collections')
    .values({ id: to, owner_id: ownerId, name: 'Previous ranking', language: 'none', index_version: 1 })
    .execute();
  await sql`
    insert into knowledge_chunks (owner_id, collection_id, item_id, ord, content, ts_config, tsv)
    select owner_id, ${to}, item_id, ord, content, 'simple', to_tsvector('simple', content) from knowledge_chunks where collection_id = ${from}
  `.execute(db);
}
