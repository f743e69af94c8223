// The chunks a knowledge baseline searches against those Parla holds (issue 37): the count and an
// MD5 over the chunks in order (item id, then position), each as `item:ord:text` on its own line.
// Parla's side is read through its API (GET /kb/v1/items/{id}/chunks), the baseline's from the
// table it ranks.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../apps/server/src/db/schema';

export interface ChunkDigest {
  count: number;
  md5: string;
}

type Chunk = { item: string; ord: number; text: string };

function digest(chunks: Chunk[]): ChunkDigest {
  const sorted = [...chunks].sort((a, b) => (a.item < b.item ? -1 : a.item > b.item ? 1 : a.ord - b.ord));
  const md5 = createHash('md5');
  for (const c of sorted) md5.update(`${c.item}:${c.ord}:${c.text}\n`);
  return { count: sorted.length, md5: md5.digest('hex') };
}

/** The chunks of a collection as Parla's API answers them. */
export async function apiChunks(kb: (method: string, path: string) => Promise<unknown>, collectionId: string): Promise<ChunkDigest> {
  const items = (await kb('GET', `/kb/v1/collections/${collectionId}/items`)) as { id: string }[];
  const chunks: Chunk[] = [];
  for (const item of items) {
    const detail = (await kb('GET', `/kb/v1/items/${item.id}/chunks`)) as { chunks: { ord: number; text: string }[] };
    for (const c of detail.chunks) chunks.push({ item: item.id, ord: c.ord, text: c.text });
  }
  return digest(chunks);
}

/** The rows of knowledge_chunks a baseline ranks for a collection. */
export async function tableChunks(db: Kysely<DB>, collectionId: string): Promise<ChunkDigest> {
  const rows = await db
    .selectFrom('knowledge_chunks')
    .select(['item_id', 'ord', 'content'])
    .where('collection_id', '=', collectionId)
    .execute();
  return digest(rows.map((r) => ({ item: r.item_id, ord: r.ord, text: r.content })));
}

/** Throws unless the baseline's chunks are Parla's. */
export function sameChunks(what: string, parla: ChunkDigest, baseline: ChunkDigest): string {
  if (parla.count !== baseline.count || parla.md5 !== baseline.md5)
    throw new Error(
      `${what}: the baseline searched ${baseline.count} chunks (md5 ${baseline.md5}), Parla holds ${parla.count} (md5 ${parla.md5})`,
    );
  return `${parla.count} chunks, md5 ${parla.md5.slice(0, 12)}`;
}
