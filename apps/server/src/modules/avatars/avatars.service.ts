// The rules of avatars: create (plan limit, echo mode, access token), update (optimistic
// concurrency, secrets, own media), delete (with its media), list and online users.
// A save is all-or-nothing: the files staged by avatars.upload.ts are recorded (row and bytes) in
// the same transaction as the avatar, and replaced files are deleted in it (decision 015).
import { checkedBillingAuthUrl } from './billing-auth-url';
import type { Transaction, Updateable } from 'kysely';
import { AvatarEngine, type DhType, type SetupMode } from '@parla/shared/enums';
import { ErrorCode, AVATAR_LIMIT_MESSAGE } from '@parla/shared/errors';
import { AVATAR_LIST_PAGE, AVATAR_MEDIA_PER_LIST, DEFAULT_BILLING_AUTH_PING_TIME, DEFAULT_IDLE_TIMEOUT_S } from '@parla/shared/limits';
import { allowsCustomImageAvatar, PLAN_LIMITS, planName } from '@parla/shared/plans';
import { DEFAULT_AVATAR_JSON, DEFAULT_CLIENT_JSON, type AvatarJson } from '@parla/shared/schemas/player';
import {
  AVATAR_FAIL_REASONS,
  AVATAR_MESSAGES,
  DEFAULT_WAKE_UP_MESSAGE,
  DH_TYPE_NAMES,
  ENCRYPTION_DEFAULT,
  ENCRYPTION_NONE,
  UPLOAD_REF,
  configFileUrl,
  defaultCustomData,
  engineName,
  hasPermission,
  isSelfHostedConfigUrl,
  AvatarPermission,
  type Avatar,
  type AvatarCardItem,
  type AvatarListResponse,
  type ListAvatarsQuery,
  type AvatarMediaItem,
  type CustomData,
  type ListAvatarUsersResponse,
  type SaveAvatarRequest,
  type SaveAvatarResponse,
} from '@parla/shared/schemas/avatar';
import type { AppContext } from '../../context';
import type { DB } from '../../db/schema';
import type { AvatarsTable } from '../../db/tables/avatars';
import { AppError } from '../../lib/errors';
import { newId, newToken } from '../../lib/tokens';
import type { SessionUser } from '../../plugins/auth';
import { countOnlineByAvatar, listOnline } from '../conversations/conversations.repository';
import type { Catalogue } from './avatars.catalogue';
import * as links from './avatar-links.repository';
import { withLiveLinks } from './avatars.links';
import { FIELD_LIST } from './avatars.media';
import { rotateTokenOnOptionChange } from './avatars.access';
import * as repo from './avatars.repository';
import { masked, nextSecret } from './avatars.secrets';
import { checkAdvanced, checkBrain, maskPipeline, sealPipeline } from '../brain/avatar-brain';
import { discardUploads, type SaveRequest, type StagedUpload } from './avatars.upload';
import { checkOwnModelSave, ownModelInfo, OWN_MODEL_TEXTS, wearsOwnModel } from './own-model.service';
import type { OwnModelColumn } from '../../db/tables/avatars';
import type { ModelCheckLimits } from './own-model.check';
import { ownAtlasUrls, ownModelFileIds } from './own-model-atlas.service';

export type Actor = Pick<SessionUser, 'id' | 'adminProxy'>;

/** Own media are served from the provider's config-files path (public, unguessable ids). */
export function mediaUrl(avatarId: string, fileId: string, ext: string): string {
  return `/config-files/avatars/${avatarId}/media/${fileId}.${ext}`;
}

function iso(d: Date | string): string {
  return (d instanceof Date ? d : new Date(d)).toISOString();
}

/** The card's reason the last conversation could not start (issue 39 item 3), when there is one. */
function startFailureOf(r: { start_failure: string | null; start_failure_at: Date | string | null }): Pick<Avatar, 'startFailure'> {
  return r.start_failure && r.start_failure_at ? { startFailure: { message: r.start_failure, at: iso(r.start_failure_at) } } : {};
}

export function toAvatar(ctx: AppContext, row: repo.AvatarRow, media: repo.AvatarMediaRow[], usersCount: number): Avatar {
  const box = ctx.secrets;
  const item = (m: repo.AvatarMediaRow): AvatarMediaItem => ({
    id: m.id,
    url: mediaUrl(row.id, m.id, m.ext),
    kind: m.kind as AvatarMediaItem['kind'],
  });
  const photo = row.avatar_photo_id ? media.find((m) => m.id === row.avatar_photo_id) : undefined;
  const custom = (row.custom_data ?? {}) as CustomData;
  return {
    id: row.id,
    name: row.name,
    nlpEngine: row.nlp_engine,
    nlpEngineName: engineName(row.nlp_engine),
    dhType: row.dh_type as DhType,
    dhTypeName: DH_TYPE_NAMES[row.dh_type as DhType] ?? row.dh_type,
    appearanceId: row.appearance_id,
    usersCount,
    callBackURL: row.call_back_url,
    created: iso(row.created_at),
    updated: iso(row.updated_at),
    projectId: row.project_id,
    agentId: row.agent_id,
    regionId: row.region_id,
    jsonKey: masked(box, row.json_key_enc),
    jsonKeyBase64: masked(box, row.json_key_enc),
    avatarPhoto: row.avatar_photo_id,
    avatarPhotoBase64: null,
    avatarPhotoURL: photo ? item(photo).url : null,
    stillURL: ownAtlasUrls(row.id, row.own_model?.atlas)?.stillURL ?? null,
    oauthEnabled: row.oauth_enabled ? 1 : 0,
    partnerOauthAppId: row.partner_oauth_app_id,
    billingAuthURL: row.billing_auth_url,
    billingAuthPingTime: row.billing_auth_ping_time,
    billingAuthHeader: row.billing_auth_header_enc ? masked(box, row.billing_auth_header_enc) : null,
    restApiKey: masked(box, row.rest_api_key_enc),
    restEndPointURL: row.rest_endpoint_url,
    poolName: row.pool_name,
    wakeUpMessage: row.wake_up_message,
    agentLanguage: row.agent_language,
    operatorAssistanceNeeded: row.operator_assistance_needed,
    token: row.token,
    encKeyId: row.enc_key_id,
    dailyLimitPerSession: row.daily_limit_per_session,
    dailyLimitPerIP: row.daily_limit_per_ip,
    dailyLimits: row.daily_limits ?? {},
    idleTimeout: row.idle_timeout,
    sendChatHistory: hasPermission(row.permissions, AvatarPermission.canSendChatHistory),
    handleSttResponse: hasPermission(row.permissions, AvatarPermission.canHandleSttResponse),
    permissions: row.permissions,
    avatarConfigURL: row.avatar_config_url ?? configFileUrl(ctx.config.PUBLIC_URL, row.id, 'avatar.json'),
    clientConfigURL: row.client_config_url ?? configFileUrl(ctx.config.PUBLIC_URL, row.id, 'client.json'),
    selfHosted: {
      avatarConfig: isSelfHostedConfigUrl(row.avatar_config_url, [ctx.config.PUBLIC_URL]),
      clientConfig: isSelfHostedConfigUrl(row.client_config_url, [ctx.config.PUBLIC_URL]),
    },
    configFilesOrigin: new URL(ctx.config.PUBLIC_URL).origin,
    avatarJson: (row.avatar_json ?? {}) as AvatarJson,
    clientJson: (row.client_json ?? {}) as Avatar['clientJson'],
    mediaDetails: {
      backgroundImage: media.filter((m) => m.list === 'backgroundImage').map(item),
      scene: media.filter((m) => m.list === 'scene').map(item),
    },
    ownModel: ownModelInfo(row.id, row.own_model, mediaUrl),
    ...startFailureOf(row),
    functions: row.functions ?? [],
    setupMode: row.setup_mode as Avatar['setupMode'],
    realtime: row.realtime,
    customData: {
      ...custom,
      agent_pipeline_config: maskPipeline(box, custom.agent_pipeline_config ?? {}) as CustomData['agent_pipeline_config'],
    },
    allowedOrigins: Array.isArray(row.allowed_origins) ? row.allowed_origins : [],
  };
}

/** One page of cards (decision 211): the columns a card shows, no secrets and no configuration,
 *  so the answer stays small and nothing is decrypted. */
export async function listAvatars(ctx: AppContext, ownerId: string, query: ListAvatarsQuery = {}): Promise<AvatarListResponse> {
  const limit = query.limit ?? AVATAR_LIST_PAGE;
  const offset = query.offset ?? 0;
  const [{ rows, more }, online] = await Promise.all([
    repo.listCards(ctx.db, ownerId, { limit, offset, search: query.search || undefined }),
    countOnlineByAvatar(ctx.db, ownerId),
  ]);
  const agents = rows.map((r): AvatarCardItem => ({
    id: r.id,
    name: r.name,
    nlpEngine: r.nlp_engine,
    nlpEngineName: engineName(r.nlp_engine),
    dhType: r.dh_type as DhType,
    dhTypeName: DH_TYPE_NAMES[r.dh_type as DhType] ?? r.dh_type,
    appearanceId: r.appearance_id,
    usersCount: online.get(r.id) ?? 0,
    created: iso(r.created_at),
    updated: iso(r.updated_at),
    avatarPhotoURL: r.avatar_photo_id && r.photo_ext ? mediaUrl(r.id, r.avatar_photo_id, r.photo_ext) : null,
    stillURL: r.still_id && r.still_ext ? mediaUrl(r.id, r.still_id, r.still_ext) : null,
    token: r.token,
    encKeyId: r.enc_key_id,
    ...startFailureOf(r),
  }));
  return { agents, nextOffset: more ? offset + rows.length : null };
}

export async function getAvatar(ctx: AppContext, ownerId: string, id: string): Promise<Avatar> {
  const row = repo.isAvatarId(id) ? await repo.find(ctx.db, ownerId, id) : undefined;
  if (!row) throw AppError.notFound('Avatar');
  const media = await repo.listMedia(ctx.db, ownerId, [id]);
  const online = await countOnlineByAvatar(ctx.db, ownerId);
  return toAvatar(ctx, row, media, online.get(id) ?? 0);
}

/** The environment a new avatar of each type starts with. */
export function defaultAvatarJson(): AvatarJson {
  return JSON.parse(JSON.stringify(DEFAULT_AVATAR_JSON)) as AvatarJson;
}

/** Replaces the editor's upload placeholders with the URLs of the files sent with them. */
function resolveUploads(json: AvatarJson, avatarId: string, uploads: StagedUpload[]): AvatarJson {
  const out = JSON.parse(JSON.stringify(json)) as AvatarJson;
  const url = (field: 'backgroundImage' | 'scene') => {
    const u = uploads.find((x) => x.field === field);
    return u ? mediaUrl(avatarId, u.file.id, u.type.ext) : null;
  };
  if (out.panel?.contentURL === UPLOAD_REF.backgroundImage) {
    const bg = url('backgroundImage');
    if (!bg) throw AppError.invalid('The background file is missing from the upload.', AVATAR_FAIL_REASONS.upload);
    out.panel.contentURL = bg;
  }
  if (out.Environment?.['gltf-model'] === UPLOAD_REF.scene) {
    const scene = url('scene');
    if (!scene) throw AppError.invalid('The 3D environment file is missing from the upload.', AVATAR_FAIL_REASONS.upload);
    out.Environment['gltf-model'] = scene;
  }
  return out;
}

function configUrl(ctx: AppContext, value: string | null | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  return value && isSelfHostedConfigUrl(value, [ctx.config.PUBLIC_URL]) ? value : null;
}

/**
 * The columns a payload sets. Absent fields keep what is stored; on create `stored` is null and
 * the table's defaults apply. Fields of the admin-proxy desk (spec 3 §6) change only from an
 * admin-proxy session; transcript download needs a realtime avatar on a PRO or ENTERPRISE plan.
 */
function columnsFrom(
  ctx: AppContext,
  actor: Actor,
  plan: number,
  p: SaveAvatarRequest,
  stored: repo.AvatarRow | null,
): Updateable<AvatarsTable> {
  const box = ctx.secrets;
  const c: Updateable<AvatarsTable> = {
    name: p.name,
    dh_type: p.dhType,
    appearance_id: p.appearanceId,
  };
  const set = <K extends keyof AvatarsTable>(key: K, value: Updateable<AvatarsTable>[K] | undefined) => {
    if (value !== undefined) c[key] = value;
  };
  if (stored) set('nlp_engine', p.nlpEngine);
  set('setup_mode', p.setupMode);
  set('enc_key_id', p.encKeyId);
  set('call_back_url', p.callBackURL);
  set('project_id', p.projectId);
  set('agent_id', p.agentId);
  set('region_id', p.regionId);
  set('rest_endpoint_url', p.restEndPointURL);
  set('pool_name', p.poolName);
  set('wake_up_message', p.wakeUpMessage);
  set('agent_language', p.agentLanguage ?? undefined);
  set('operator_assistance_needed', p.operatorAssistanceNeeded);
  set('oauth_enabled', p.oauthEnabled);
  set('partner_oauth_app_id', p.partnerOauthAppId);
  set('billing_auth_url', checkedBillingAuthUrl(ctx, p.billingAuthURL));
  set('billing_auth_ping_time', p.billingAuthPingTime);
  // Checked by checkAdvanced before (an emptied limit is refused there).
  set('daily_limit_per_session', p.dailyLimitPerSession ?? undefined);
  set('daily_limit_per_ip', p.dailyLimitPerIP ?? undefined);
  if (p.dailyLimits) c.daily_limits = JSON.stringify(p.dailyLimits);
  if (p.allowedOrigins) c.allowed_origins = JSON.stringify(p.allowedOrigins);
  set('avatar_config_url', configUrl(ctx, p.avatarConfigURL));
  set('client_config_url', configUrl(ctx, p.clientConfigURL));
  if (p.clientJson) c.client_json = JSON.stringify(p.clientJson);

  const jsonKey =
    p.jsonKey ??
    (p.jsonKeyBase64 && !p.jsonKeyBase64.startsWith('••') ? Buffer.from(p.jsonKeyBase64, 'base64').toString('utf8') : p.jsonKeyBase64);
  c.json_key_enc = nextSecret(box, jsonKey, stored?.json_key_enc ?? null);
  c.rest_api_key_enc = nextSecret(box, p.restApiKey, stored?.rest_api_key_enc ?? null);
  c.billing_auth_header_enc = nextSecret(box, p.billingAuthHeader, stored?.billing_auth_header_enc ?? null);

  const realtime = actor.adminProxy && p.realtime !== undefined ? p.realtime : (stored?.realtime ?? false);
  c.realtime = realtime;
  if (actor.adminProxy) {
    set('idle_timeout', p.idleTimeout ?? undefined);
    const bits = stored?.permissions ?? 0;
    const send = p.sendChatHistory ?? hasPermission(bits, AvatarPermission.canSendChatHistory);
    const stt = p.handleSttResponse ?? hasPermission(bits, AvatarPermission.canHandleSttResponse);
    c.permissions = (send ? AvatarPermission.canSendChatHistory : 0) | (stt ? AvatarPermission.canHandleSttResponse : 0);
  }

  const before = (stored?.custom_data as CustomData | undefined) ?? defaultCustomData();
  const incoming = p.customData ?? {};
  const custom: CustomData = { ...before, ...incoming };
  const mode = (p.setupMode ?? stored?.setup_mode ?? 'Simple') as SetupMode;
  custom.agent_pipeline_config =
    incoming.agent_pipeline_config !== undefined
      ? sealPipeline(box, incoming.agent_pipeline_config, before.agent_pipeline_config, mode, {
          engine: stored ? (p.nlpEngine ?? stored.nlp_engine) : AvatarEngine.EchoTest,
          previousEngine: stored?.nlp_engine,
        })
      : before.agent_pipeline_config;
  if (!actor.adminProxy) custom.words_per_sec = before.words_per_sec;
  if (!(realtime && allowsCustomImageAvatar(planName(plan)))) custom.enable_transcript_download = false;
  // Collections are links (avatar_knowledge_collections), written by writeLinks.
  delete custom.collection_ids;
  c.custom_data = JSON.stringify(custom);
  return c;
}

/** The row a save of `p` would leave the stored avatar with, nothing written (the Brain tab's
 *  Test runs the brain as the editor holds it: modules/brain/brain-test.ts). */
export async function avatarAfterSave(
  ctx: AppContext,
  actor: Actor,
  p: SaveAvatarRequest,
  stored: repo.AvatarRow,
): Promise<repo.AvatarRow> {
  checkBrain(ctx, p, stored);
  const plan = (await repo.planOf(ctx.db, actor.id)) ?? 0;
  const columns = columnsFrom(ctx, actor, plan, p, stored);
  return { ...stored, ...columns, custom_data: JSON.parse(columns.custom_data as string) as unknown } as repo.AvatarRow;
}

/** A key's id names a link (avatar_encryption_keys); 'Default' and 'None' are options. */
function isKeyId(option: string): boolean {
  return option !== ENCRYPTION_DEFAULT && option !== ENCRYPTION_NONE && option !== '';
}

/** The enc_key_id column for an option: a linked key's avatar keeps 'Default', which it falls
 *  back to when the key is deleted (decision 403). */
function optionColumn(option: string): string {
  return isKeyId(option) || option === '' ? ENCRYPTION_DEFAULT : option;
}

/**
 * Writes the payload's links (migration 0220) in the save's transaction, after the avatar's row:
 * what the payload leaves out stays linked. `option` is the encryption option being saved.
 */
async function writeLinks(
  trx: Transaction<DB>,
  ownerId: string,
  avatarId: string,
  p: SaveAvatarRequest,
  option: string | undefined,
): Promise<void> {
  const collections = p.customData?.collection_ids;
  if (collections) await links.setCollections(trx, ownerId, avatarId, collections);
  if (p.functions) await links.setFunctions(trx, ownerId, avatarId, p.functions);
  if (option !== undefined) await links.setKey(trx, ownerId, avatarId, isKeyId(option) ? option : null);
}

function checkMediaRoom(kept: number, adding: number, what: string) {
  if (kept + adding > AVATAR_MEDIA_PER_LIST) {
    throw AppError.invalid(
      `An avatar keeps at most ${AVATAR_MEDIA_PER_LIST} ${what}. Delete one before uploading another.`,
      AVATAR_FAIL_REASONS.mediaLimit,
    );
  }
}

async function recordUploads(ctx: AppContext, trx: Transaction<DB>, ownerId: string, avatarId: string, uploads: StagedUpload[]) {
  for (const u of uploads) {
    await ctx.files.record(trx, u.file, {
      kind: `avatar-${FIELD_LIST[u.field]}`,
      contentType: u.type.contentType,
      originalName: u.originalName,
    });
    await repo.insertMedia(trx, {
      id: u.file.id,
      avatar_id: avatarId,
      owner_id: ownerId,
      list: FIELD_LIST[u.field],
      kind: u.type.kind,
      ext: u.type.ext,
    });
  }
}

async function createIn(
  ctx: AppContext,
  trx: Transaction<DB>,
  actor: Actor,
  p: SaveAvatarRequest,
  uploads: StagedUpload[],
  model: OwnModelColumn | undefined,
) {
  if (wearsOwnModel(p) && !model) throw AppError.invalid(OWN_MODEL_TEXTS.missing);
  checkBrain(ctx, p, null);
  checkAdvanced(p, null, actor);
  const plan = await repo.lockOwner(trx, actor.id);
  if (plan === null) throw AppError.unauthenticated();
  const limit = PLAN_LIMITS[planName(plan)].avatars;
  if (limit !== null && (await repo.countByOwner(trx, actor.id)) >= limit) {
    throw new AppError(ErrorCode.AvatarCreateLimitReached, 403, [AVATAR_LIMIT_MESSAGE], { failReason: AVATAR_FAIL_REASONS.limit });
  }
  const id = newId();
  const now = ctx.now();
  const photo = uploads.find((u) => u.field === 'avatarPhoto');
  const columns = columnsFrom(ctx, actor, plan, p, null);
  const option = p.encKeyId ?? ENCRYPTION_DEFAULT;
  await repo.insert(trx, {
    ...columns,
    id,
    owner_id: actor.id,
    name: p.name,
    dh_type: p.dhType,
    appearance_id: p.appearanceId,
    // New avatars start in echo-back mode (spec 2 §3), whatever the payload says.
    nlp_engine: AvatarEngine.EchoTest,
    token: newToken(),
    enc_key_id: optionColumn(option),
    wake_up_message: p.wakeUpMessage ?? DEFAULT_WAKE_UP_MESSAGE,
    billing_auth_ping_time: p.billingAuthPingTime ?? DEFAULT_BILLING_AUTH_PING_TIME,
    idle_timeout: (actor.adminProxy ? p.idleTimeout : undefined) ?? DEFAULT_IDLE_TIMEOUT_S,
    avatar_json: JSON.stringify(resolveUploads(p.avatarJson ?? defaultAvatarJson(), id, uploads)),
    client_json: JSON.stringify(p.clientJson ?? DEFAULT_CLIENT_JSON),
    custom_data: columns.custom_data as string,
    daily_limits: (columns.daily_limits as string | undefined) ?? JSON.stringify({ Demo: -1 }),
    avatar_photo_id: photo ? photo.file.id : null,
    own_model: model ? JSON.stringify(model) : null,
    created_at: now,
    updated_at: now,
  });
  await writeLinks(trx, actor.id, id, p, option);
  await recordUploads(ctx, trx, actor.id, id, uploads);
  return { id };
}

async function updateIn(
  ctx: AppContext,
  trx: Transaction<DB>,
  actor: Actor,
  p: SaveAvatarRequest & { id: string },
  uploads: StagedUpload[],
  model: OwnModelColumn | undefined,
) {
  const stored = repo.isAvatarId(p.id) ? await repo.findForUpdate(trx, actor.id, p.id) : undefined;
  if (!stored) throw AppError.notFound('Avatar');
  if (!p.updated) throw AppError.invalid('updated is required to update an avatar: send the updated time the avatar was loaded with.');
  const seen = Date.parse(p.updated);
  if (Number.isNaN(seen)) throw AppError.invalid('updated must be the time the avatar was last saved.');
  const version = new Date(stored.updated_at).getTime();
  if (version > seen) throw AppError.stale();
  checkBrain(ctx, p, stored);
  checkAdvanced(p, stored, actor);

  const plan = (await repo.planOf(trx, actor.id)) ?? 0;
  const columns = columnsFrom(ctx, actor, plan, p, stored);
  rotateTokenOnOptionChange(stored, columns);
  const media = await repo.listMedia(trx, actor.id, [p.id]);
  const forget = (fileId: string) => ctx.files.forget(trx, actor.id, fileId);

  for (const list of ['backgroundImage', 'scene'] as const) {
    const current = media.filter((m) => m.list === list);
    const keep = p.mediaDetails ? new Set(p.mediaDetails[list].map((m) => m.id)) : new Set(current.map((m) => m.id));
    for (const m of current) if (!keep.has(m.id)) await forget(m.id);
    checkMediaRoom(
      current.filter((m) => keep.has(m.id)).length,
      uploads.filter((u) => u.field === list).length,
      list === 'scene' ? '3D environments' : 'backgrounds',
    );
  }
  const photo = uploads.find((u) => u.field === 'avatarPhoto');
  if ((photo || p.removeAvatarPhoto) && stored.avatar_photo_id) await forget(stored.avatar_photo_id);
  if (photo) columns.avatar_photo_id = photo.file.id;
  else if (p.removeAvatarPhoto) columns.avatar_photo_id = null;
  // The own model: replaced by a new upload, dropped with its file when a catalogue appearance is chosen.
  const storedModel = stored.own_model;
  if (wearsOwnModel(p) && !model && !storedModel) throw AppError.invalid(OWN_MODEL_TEXTS.missing);
  if (storedModel && (model || !wearsOwnModel(p))) for (const id of ownModelFileIds(storedModel)) await forget(id);
  if (model) columns.own_model = JSON.stringify(model);
  else if (!wearsOwnModel(p)) columns.own_model = null;

  if (p.avatarJson) columns.avatar_json = JSON.stringify(resolveUploads(p.avatarJson, p.id, uploads));
  // A strictly later version each save, so two saves within one millisecond still differ.
  columns.updated_at = new Date(Math.max(ctx.now().getTime(), version + 1));
  const option = typeof columns.enc_key_id === 'string' ? columns.enc_key_id : undefined;
  if (option !== undefined) columns.enc_key_id = optionColumn(option);
  await repo.update(trx, actor.id, p.id, columns);
  await writeLinks(trx, actor.id, p.id, p, option);
  await recordUploads(ctx, trx, actor.id, p.id, uploads);
  return { id: p.id };
}

export async function saveAvatar(
  ctx: AppContext,
  catalogue: Catalogue,
  actor: Actor,
  { payload: sent, uploads }: SaveRequest,
  modelLimits?: ModelCheckLimits,
): Promise<SaveAvatarResponse> {
  try {
    // Outside the transaction: PGlite has one connection, and these read other areas' tables.
    const payload = await withLiveLinks(ctx, actor.id, sent);
    if (!wearsOwnModel(payload)) {
      const appearance = await catalogue.avatar(payload.appearanceId);
      if (!appearance) throw AppError.invalid(AVATAR_MESSAGES.selectionRequired, AVATAR_FAIL_REASONS.appearance);
      if (appearance.type !== payload.dhType) {
        throw AppError.invalid('The avatar type does not match the chosen appearance.', AVATAR_FAIL_REASONS.appearance);
      }
    }
    // The model is read in its child before the transaction (PGlite has one connection).
    const model = await checkOwnModelSave(ctx, actor.id, payload, uploads, modelLimits);
    const result = await ctx.db
      .transaction()
      .execute((trx) =>
        payload.id
          ? updateIn(ctx, trx, actor, { ...payload, id: payload.id }, uploads, model)
          : createIn(ctx, trx, actor, payload, uploads, model),
      );
    return { status: 'OK', agent: await getAvatar(ctx, actor.id, result.id), failReason: null };
  } finally {
    // The temp files: their bytes are in the database now, or the save failed (decision 015).
    await discardUploads(ctx, uploads);
  }
}

export async function deleteAvatar(ctx: AppContext, ownerId: string, agentId: string): Promise<{ status: 'OK'; agentId: string }> {
  if (!repo.isAvatarId(agentId)) throw AppError.notFound('Avatar');
  await ctx.db.transaction().execute(async (trx) => {
    const row = await repo.findForUpdate(trx, ownerId, agentId);
    if (!row) throw AppError.notFound('Avatar');
    const media = await repo.listMedia(trx, ownerId, [agentId]);
    for (const m of media) await ctx.files.forget(trx, ownerId, m.id);
    await repo.remove(trx, ownerId, agentId);
  });
  return { status: 'OK', agentId };
}

export async function listAvatarUsers(ctx: AppContext, ownerId: string, agentId: string): Promise<ListAvatarUsersResponse> {
  const row = repo.isAvatarId(agentId) ? await repo.find(ctx.db, ownerId, agentId) : undefined;
  if (!row) throw AppError.notFound('Avatar');
  const rows = await listOnline(ctx.db, { ownerId, avatarId: agentId });
  return {
    status: 'OK',
    agentId,
    onlineUsers: rows.map((r) => ({
      sessionId: r.id,
      userName: r.user_name,
      deviceOS: r.device_os,
      onlineStatus: r.status,
      locale: r.locale,
      lastConnectTimeStamp: iso(r.started_at),
      ipAddress: r.ip_address,
      spokenLanguage: r.spoken_language,
    })),
    errors: [],
  };
}
