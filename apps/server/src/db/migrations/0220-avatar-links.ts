import { sql, type Kysely } from 'kysely';

// An avatar's links to knowledge collections, functions and an encryption key become join tables
// with foreign keys (issue 12, decision 403): deleting a collection, a function, a key or the
// avatar removes its links by cascade, in the same statement, with no cleaner in code.
//
// The links move out of avatars.custom_data->'collection_ids', avatars.functions and
// avatars.enc_key_id. Only links to rows that still exist and belong to the avatar's owner move
// (older deletes may have left dangling ids; another account's id was never a link). enc_key_id
// keeps the option an avatar falls back to without a linked key: 'Default' or 'None'.
/** The linked tables are made by later ranges (0400 knowledge, 0410 functions, 0420 keys). */
export const runsAfter = '0420-encryption-keys';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table avatar_knowledge_collections (
      avatar_id text not null references avatars(id) on delete cascade,
      collection_id text not null references knowledge_collections(id) on delete cascade,
      position integer not null,
      primary key (avatar_id, collection_id)
    );
    create index avatar_knowledge_collections_collection_idx on avatar_knowledge_collections(collection_id);

    create table avatar_functions (
      avatar_id text not null references avatars(id) on delete cascade,
      function_id text not null references functions(id) on delete cascade,
      position integer not null,
      primary key (avatar_id, function_id)
    );
    create index avatar_functions_function_idx on avatar_functions(function_id);

    create table avatar_encryption_keys (
      avatar_id text primary key references avatars(id) on delete cascade,
      key_id text not null references encryption_keys(id) on delete cascade
    );
    create index avatar_encryption_keys_key_idx on avatar_encryption_keys(key_id);

    insert into avatar_knowledge_collections (avatar_id, collection_id, position)
      select a.id, c.id, min(e.n)
      from avatars a
      cross join lateral jsonb_array_elements_text(
        case when jsonb_typeof(a.custom_data) = 'object' and jsonb_typeof(a.custom_data->'collection_ids') = 'array'
          then a.custom_data->'collection_ids' else '[]'::jsonb end
      ) with ordinality as e(id, n)
      join knowledge_collections c on c.id = e.id and c.owner_id = a.owner_id
      group by a.id, c.id;

    insert into avatar_functions (avatar_id, function_id, position)
      select a.id, f.id, min(e.n)
      from avatars a
      cross join lateral jsonb_array_elements_text(case when jsonb_typeof(a.functions) = 'array' then a.functions else '[]'::jsonb end) with ordinality as e(id, n)
      join functions f on f.id = e.id and f.owner_id = a.owner_id
      group by a.id, f.id;

    insert into avatar_encryption_keys (avatar_id, key_id)
      select a.id, k.id from avatars a join encryption_keys k on k.id = a.enc_key_id and k.owner_id = a.owner_id;

    update avatars set custom_data = custom_data - 'collection_ids' where jsonb_typeof(custom_data) = 'object';
    update avatars set enc_key_id = 'Default' where enc_key_id not in ('Default', 'None');
    alter table avatars drop column functions;
    alter table avatars add constraint avatars_enc_option check (enc_key_id in ('Default', 'None'));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table avatars drop constraint avatars_enc_option;
    alter table avatars add column functions jsonb not null default '[]'::jsonb;
    update avatars a set functions = coalesce((select jsonb_agg(l.function_id order by l.position) from avatar_functions l where l.avatar_id = a.id), '[]'::jsonb);
    update avatars a set custom_data = jsonb_set(custom_data, '{collection_ids}',
      coalesce((select jsonb_agg(l.collection_id order by l.position) from avatar_knowledge_collections l where l.avatar_id = a.id), '[]'::jsonb))
      where jsonb_typeof(custom_data) = 'object';
    update avatars a set enc_key_id = l.key_id from avatar_encryption_keys l where l.avatar_id = a.id;
    drop table avatar_encryption_keys; drop table avatar_functions; drop table avatar_knowledge_collections;
  `.execute(db);
}
