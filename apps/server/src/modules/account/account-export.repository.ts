// Queries of the account export (decision 625): every one scoped by the owner, paged by key so a
// large account is read a page at a time. Only columns without secrets are selected: no password
// hash, avatar token, encrypted keys or headers, client secrets.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';

export const EXPORT_PAGE = 100;

export function accountRow(db: Kysely<DB>, ownerId: string) {
  return db
    .selectFrom('users')
    .select([
      'id',
      'email',
      'first_name',
      'last_name',
      'company_name',
      'mobile_number',
      'user_type',
      'status',
      'subscription_type',
      'subscribed_since',
      'created_at',
    ])
    .where('id', '=', ownerId)
    .executeTakeFirst();
}

export function avatarsPage(db: Kysely<DB>, ownerId: string, after: string) {
  return db
    .selectFrom('avatars')
    .select([
      'id',
      'name',
      'dh_type',
      'appearance_id',
      'nlp_engine',
      'setup_mode',
      'realtime',
      'enc_key_id',
      'permissions',
      'call_back_url',
      'project_id',
      'agent_id',
      'region_id',
      'rest_endpoint_url',
      'pool_name',
      'wake_up_message',
      'agent_language',
      'oauth_enabled',
      'partner_oauth_app_id',
      'billing_auth_url',
      'billing_auth_ping_time',
      'daily_limit_per_session',
      'daily_limit_per_ip',
      'daily_limits',
      'idle_timeout',
      'allowed_origins',
      'custom_data',
      'avatar_json',
      'client_json',
      'created_at',
      'updated_at',
    ])
    .where('owner_id', '=', ownerId)
    .where('id', '>', after)
    .orderBy('id')
    .limit(EXPORT_PAGE)
    .execute();
}

export function collectionsPage(db: Kysely<DB>, ownerId: string, after: string) {
  return db
    .selectFrom('knowledge_collections')
    .select(['id', 'name', 'language', 'detected_language', 'crawl_schedule', 'crawl_url', 'created_at', 'updated_at'])
    .where('owner_id', '=', ownerId)
    .where('id', '>', after)
    .orderBy('id')
    .limit(EXPORT_PAGE)
    .execute();
}

export function itemsPage(db: Kysely<DB>, ownerId: string, collectionId: string, after: string) {
  return db
    .selectFrom('knowledge_items')
    .select(['id', 'name', 'kind', 'content', 'url', 'file_name', 'file_type', 'status', 'fail_reason', 'created_at', 'updated_at'])
    .where('owner_id', '=', ownerId)
    .where('collection_id', '=', collectionId)
    .where('id', '>', after)
    .orderBy('id')
    .limit(EXPORT_PAGE)
    .execute();
}

/** The extracted text of a page or file item, in order. */
export function chunksPage(db: Kysely<DB>, ownerId: string, itemId: string, afterOrd: number) {
  return db
    .selectFrom('knowledge_chunks')
    .select(['ord', 'content'])
    .where('owner_id', '=', ownerId)
    .where('item_id', '=', itemId)
    .where('ord', '>', afterOrd)
    .orderBy('ord')
    .limit(EXPORT_PAGE)
    .execute();
}

export function functionsPage(db: Kysely<DB>, ownerId: string, after: string) {
  return db
    .selectFrom('functions')
    .select(['id', 'name', 'language', 'code', 'approval_status', 'review_reason', 'created_at', 'updated_at'])
    .where('owner_id', '=', ownerId)
    .where('id', '>', after)
    .orderBy('id')
    .limit(EXPORT_PAGE)
    .execute();
}

export function oauthAppsPage(db: Kysely<DB>, ownerId: string, after: number) {
  return db
    .selectFrom('oauth_apps')
    .select(['id', 'app_name', 'partner', 'client_id', 'oauth_url', 'token_issue_url', 'issuer', 'jwks_url', 'created_at', 'updated_at'])
    .where('owner_id', '=', ownerId)
    .where('id', '>', after)
    .orderBy('id')
    .limit(EXPORT_PAGE)
    .execute();
}

export function conversationsPage(db: Kysely<DB>, ownerId: string, after: string) {
  return db
    .selectFrom('conversations')
    .select([
      'id',
      'avatar_id',
      'avatar_name',
      'user_id',
      'user_name',
      'locale',
      'status',
      'started_at',
      'ended_at',
      'end_reason',
      'end_detail',
      'summary',
    ])
    .where('owner_id', '=', ownerId)
    .where('id', '>', after)
    .orderBy('id')
    .limit(EXPORT_PAGE)
    .execute();
}

export function messagesPage(db: Kysely<DB>, ownerId: string, conversationId: string, afterSeq: number) {
  return db
    .selectFrom('conversation_messages')
    .select(['seq', 'role', 'text', 'at', 'interrupted'])
    .where('owner_id', '=', ownerId)
    .where('conversation_id', '=', conversationId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(EXPORT_PAGE)
    .execute();
}
