// Avatar rows and their media rows. Every query an owner's screen reaches takes the owner id
// first: another account's avatar is simply not found. The player's public view is the one
// reader without an owner (it proves access with the avatar's token instead).
import { sql, type Insertable, type Kysely, type Selectable, type SelectQueryBuilder, type Transaction, type Updateable } from 'kysely';
import type { DB } from '../../db/schema';
import type { AvatarMediaTable, AvatarsTable } from '../../db/tables/avatars';

type Q = Kysely<DB> | Transaction<DB>;

/** Ids are lower-case UUIDs made by the server; anything else names no row (and must not reach
 *  SQL). The one rule of every entry point: @parla/shared/schemas/avatar-id. */
export { isAvatarId } from '@parla/shared/schemas/avatar-id';
/** A stored avatar as its owner's screens see it: the row with its links (migration 0220) in the
 *  places the API has them: `functions`, `custom_data.collection_ids`, and `enc_key_id` = the
 *  linked key's id, else the stored option ('Default' or 'None'). */
export type AvatarRow = Selectable<AvatarsTable> & { functions: string[] };
/** A stored avatar for the public view and the runtime: `enc_key_id` resolved as above; the
 *  runtime reads collections and functions through avatar-links.repository. */
export type PublicAvatarRow = Selectable<AvatarsTable>;

const linkedKey = sql<string | null>`(select l.key_id from avatar_encryption_keys l where l.avatar_id = avatars.id)`;
const linkedFunctions = sql<
  string[] | string
>`coalesce((select json_agg(l.function_id order by l.position) from avatar_functions l where l.avatar_id = avatars.id), '[]'::json)`;
const linkedCollections = sql<
  string[] | string
>`coalesce((select json_agg(l.collection_id order by l.position) from avatar_knowledge_collections l where l.avatar_id = avatars.id), '[]'::json)`;
const parsed = (v: string[] | string): string[] => (typeof v === 'string' ? (JSON.parse(v) as string[]) : v);

type Linked = Selectable<AvatarsTable> & {
  linked_key: string | null;
  linked_functions: string[] | string;
  linked_collections: string[] | string;
};

function withKey<R extends { enc_key_id: string; linked_key: string | null }>(r: R): Omit<R, 'linked_key'> {
  const { linked_key, ...row } = r;
  return { ...row, enc_key_id: linked_key ?? row.enc_key_id };
}

function withLinks(r: Linked | undefined): AvatarRow | undefined {
  if (!r) return undefined;
  const { linked_functions, linked_collections, ...rest } = r;
  const row = withKey(rest);
  return {
    ...row,
    functions: parsed(linked_functions),
    custom_data: { ...(row.custom_data ?? {}), collection_ids: parsed(linked_collections) },
  };
}
export type AvatarMediaRow = Selectable<AvatarMediaTable>;

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export interface CardPage {
  limit: number;
  offset: number;
  /** Part of the avatar id, any case. */
  search?: string;
}

/** The columns of a card, and its photo's extension. */
export interface CardRow {
  id: string;
  name: string;
  nlp_engine: number;
  dh_type: string;
  appearance_id: string;
  created_at: string;
  updated_at: string;
  token: string;
  enc_key_id: string;
  avatar_photo_id: string | null;
  photo_ext: string | null;
  /** The still of an own model's viseme atlas (decision 127): the card's face without a photo. */
  still_id: string | null;
  still_ext: string | null;
  start_failure: string | null;
  start_failure_at: string | null;
}

/** One page of the owner's avatars, newest first, with only what a card shows; `more` when
 *  another page follows. Read in the order of the list's index (owner, newest first, id —
 *  migration 0210); past the first page the page's ids come first from that index, so the offset
 *  skips index entries, not whole rows (a first page reads its rows directly: the join would cost
 *  more than it saves). Ids are lower-case, so the search is a plain LIKE of the lower-cased text
 *  (ILIKE cost several times as much per row on PGlite). The rows come back as one JSON value:
 *  decoding 200 rows of 11 columns costs the embedded database several times more than one
 *  document (decisions 211, 223). */
export async function listCards(db: Q, ownerId: string, page: CardPage): Promise<{ rows: CardRow[]; more: boolean }> {
  const inPage = <T extends SelectQueryBuilder<DB, 'avatars', object>>(q: T): T => {
    let r = q.where('avatars.owner_id', '=', ownerId);
    if (page.search) r = r.where('avatars.id', 'like', `%${likeLiteral(page.search.toLowerCase())}%`);
    return r
      .orderBy('avatars.created_at', 'desc')
      .orderBy('avatars.id')
      .limit(page.limit + 1)
      .offset(page.offset) as T;
  };
  const from =
    page.offset === 0
      ? inPage(db.selectFrom('avatars'))
      : db
          .selectFrom(inPage(db.selectFrom('avatars').select('avatars.id')).as('p'))
          .innerJoin('avatars', 'avatars.id', 'p.id')
          .where('avatars.owner_id', '=', ownerId);
  const q = from
    .leftJoin('avatar_media as photo', (j) =>
      j.onRef('photo.id', '=', 'avatars.avatar_photo_id').onRef('photo.avatar_id', '=', 'avatars.id'),
    )
    .select([
      'avatars.id',
      'avatars.name',
      'avatars.start_failure',
      'avatars.start_failure_at',
      'avatars.nlp_engine',
      'avatars.dh_type',
      'avatars.appearance_id',
      'avatars.created_at',
      'avatars.updated_at',
      'avatars.token',
      sql<string>`coalesce(${linkedKey}, avatars.enc_key_id)`.as('enc_key_id'),
      'avatars.avatar_photo_id',
      'photo.ext as photo_ext',
      sql<string | null>`avatars.own_model->'atlas'->>'stillId'`.as('still_id'),
      sql<string | null>`avatars.own_model->'atlas'->>'stillExt'`.as('still_ext'),
    ]);
  const res = await sql<{
    rows: CardRow[] | string;
  }>`select coalesce(json_agg(c order by c.created_at desc, c.id), '[]'::json) as rows from (${q}) c`.execute(db);
  const raw = res.rows[0]?.rows ?? [];
  const rows = typeof raw === 'string' ? (JSON.parse(raw) as CardRow[]) : raw;
  return { rows: rows.slice(0, page.limit), more: rows.length > page.limit };
}

function selectLinked(db: Q) {
  return db
    .selectFrom('avatars')
    .selectAll('avatars')
    .select([linkedKey.as('linked_key'), linkedFunctions.as('linked_functions'), linkedCollections.as('linked_collections')]);
}

export async function find(db: Q, ownerId: string, id: string): Promise<AvatarRow | undefined> {
  return withLinks(await selectLinked(db).where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst());
}

/** The row, locked until the transaction ends (concurrent saves of one avatar queue up). */
export async function findForUpdate(trx: Transaction<DB>, ownerId: string, id: string): Promise<AvatarRow | undefined> {
  return withLinks(await selectLinked(trx).where('owner_id', '=', ownerId).where('id', '=', id).forUpdate().executeTakeFirst());
}

/** For the public view and the runtime: no owner, the caller checks the token. */
export async function findPublic(db: Q, id: string): Promise<PublicAvatarRow | undefined> {
  const row = await db
    .selectFrom('avatars')
    .selectAll('avatars')
    .select(linkedKey.as('linked_key'))
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? withKey(row) : undefined;
}

/** The avatar's Allowed websites (no owner: the player page's framing rule), or undefined. */
export async function findAllowedOrigins(db: Q, id: string): Promise<unknown[] | undefined> {
  const row = await db.selectFrom('avatars').select('allowed_origins').where('id', '=', id).executeTakeFirst();
  return row ? (Array.isArray(row.allowed_origins) ? row.allowed_origins : []) : undefined;
}

/** The owner's most recently changed avatar that lists Allowed websites: its list. */
export async function latestAllowedOrigins(db: Q, ownerId: string): Promise<unknown[]> {
  const row = await db
    .selectFrom('avatars')
    .select('allowed_origins')
    .where('owner_id', '=', ownerId)
    .where(sql<boolean>`jsonb_array_length(allowed_origins) > 0`)
    .orderBy('updated_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return Array.isArray(row?.allowed_origins) ? row.allowed_origins : [];
}

/** The avatar's OAuth settings with its owner's account status (the OAuth start refuses suspended owners). */
export function findWithOwnerStatus(db: Q, id: string) {
  return db
    .selectFrom('avatars')
    .innerJoin('users', 'users.id', 'avatars.owner_id')
    .select(['avatars.owner_id', 'avatars.oauth_enabled', 'avatars.partner_oauth_app_id', 'users.status'])
    .where('avatars.id', '=', id)
    .executeTakeFirst();
}

/** Locks the owner's row so two creates cannot both pass the plan's limit; returns the plan. */
export async function lockOwner(trx: Transaction<DB>, ownerId: string): Promise<number | null> {
  const row = await trx.selectFrom('users').select('subscription_type').where('id', '=', ownerId).forUpdate().executeTakeFirst();
  return row ? row.subscription_type : null;
}

export async function countByOwner(db: Q, ownerId: string): Promise<number> {
  const row = await db
    .selectFrom('avatars')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function planOf(db: Q, ownerId: string): Promise<number | null> {
  const row = await db.selectFrom('users').select('subscription_type').where('id', '=', ownerId).executeTakeFirst();
  return row ? row.subscription_type : null;
}

export function insert(trx: Q, row: Insertable<AvatarsTable>) {
  return trx.insertInto('avatars').values(row).execute();
}

export function update(trx: Q, ownerId: string, id: string, patch: Updateable<AvatarsTable>) {
  return trx.updateTable('avatars').set(patch).where('owner_id', '=', ownerId).where('id', '=', id).execute();
}

/** Replaces the link token; whether the owner's avatar was there. */
export async function setToken(db: Q, ownerId: string, id: string, token: string): Promise<boolean> {
  const r = await db.updateTable('avatars').set({ token }).where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export function remove(trx: Q, ownerId: string, id: string) {
  return trx.deleteFrom('avatars').where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
}

/** The owner's media of these avatars (of all their avatars when `avatarIds` is left out). */
export function listMedia(db: Q, ownerId: string, avatarIds?: string[]) {
  if (avatarIds?.length === 0) return Promise.resolve([] as AvatarMediaRow[]);
  let q = db.selectFrom('avatar_media').selectAll().where('owner_id', '=', ownerId);
  if (avatarIds) q = q.where('avatar_id', 'in', avatarIds);
  return q.orderBy('created_at').orderBy('id').execute();
}

export function insertMedia(trx: Q, row: Insertable<AvatarMediaTable>) {
  return trx.insertInto('avatar_media').values(row).execute();
}

/** A media file of an avatar with what answering it needs (public: backgrounds, photos). */
export function findMediaFile(db: Q, avatarId: string, fileId: string) {
  return db
    .selectFrom('avatar_media')
    .innerJoin('stored_files', 'stored_files.id', 'avatar_media.id')
    .select([
      'avatar_media.id',
      'avatar_media.ext',
      'stored_files.content_type',
      'stored_files.size_bytes',
      'stored_files.sha256',
      'stored_files.created_at',
      'stored_files.chunk_count',
    ])
    .where('avatar_media.avatar_id', '=', avatarId)
    .where('avatar_media.id', '=', fileId)
    .executeTakeFirst();
}

/** Why a conversation of the avatar could not start (the owner's words); `updated_at` stays. */
export async function recordStartFailure(db: Q, avatarId: string, message: string, at: Date): Promise<void> {
  await db
    .updateTable('avatars')
    .set({ start_failure: message.slice(0, 500), start_failure_at: at })
    .where('id', '=', avatarId)
    .execute();
}

/** A conversation started: the card's reason goes (a no-op when there is none). */
export async function clearStartFailure(db: Q, avatarId: string): Promise<void> {
  await db
    .updateTable('avatars')
    .set({ start_failure: null, start_failure_at: null })
    .where('id', '=', avatarId)
    .where('start_failure', 'is not', null)
    .execute();
}
