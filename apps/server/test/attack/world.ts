// The world the attack tests run in: a victim account that owns one of everything (avatar with a
// stored background, OAuth config, function, encryption key, knowledge collection with a text
// item and an uploaded file, an open conversation with timed turns), a canary planted in every
// secret field it has, an attacker account with its own avatar, collection and conversation, and
// an administrator. Made through the API, the way a person makes them; the conversation records
// are written by the runtime's own writers (repository and turn recorder), as a conversation on
// another server process would have left them.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Avatar } from '@parla/shared/schemas/avatar';
import type { CatalogueAvatar } from '@parla/shared/schemas/catalogue';
import type { BrainCatalogue } from '@parla/shared/provider-urls';
import { createAdmin, createCustomer, type TestAccount } from '../accounts';
import { canarySecret, type TestServer } from '../harness';
import { fileOf, save, UPLOAD_REF } from '../avatar-requests';
import { kbToken, multipart as kbMultipart } from '../knowledge-requests';
import { startKnowledgeWorker } from '../../src/modules/knowledge/knowledge.worker';
import { startConversation } from '../../src/modules/conversations/conversations.repository';
import { createGap } from '../../src/modules/insight/knowledge-gaps.repository';

/** In every name the victim gives: a foreign list or search must never show it. */
export const VICTIM_MARK = 'VICTIMMARK';

export interface Party extends TestAccount {
  jwt: string;
  avatar: Avatar;
  collectionId: string;
  /** An open conversation with the avatar (online users) that has timed turns (latency). */
  sessionId: string;
  /** An open knowledge gap of the party's avatar (issue 38). */
  gapId: string;
}

export interface Victim extends Party {
  /** The stored background of the avatar: /config-files/avatars/{avatar}/media/{file}.{ext}. */
  mediaPath: string;
  mediaFile: string;
  oauthAppId: number;
  functionId: string;
  encKeyId: string;
  itemId: string;
  kbFileId: string;
  /** Every canary planted, by field (jsonKeyBase64 in the attacker's avatar, base64-encoded). */
  canaries: Record<string, string>;
}

export interface World {
  victim: Victim;
  attacker: Party;
  admin: TestAccount;
  /** The provider URLs the Brain forms offer (GET /api/brain/catalogue). */
  catalogue: BrainCatalogue;
  /** The in-process pipeline node (administrators' VPS list). */
  nodeId: string;
}

async function ok(res: Promise<{ statusCode: number; body: string; json(): unknown }>): Promise<Record<string, unknown>> {
  const r = await res;
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as Record<string, unknown>;
}

export function kb(server: TestServer, jwt: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  return server.inject({
    method,
    url,
    appKey: null,
    headers: { authorization: `Bearer ${jwt}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function appearance(server: TestServer): Promise<CatalogueAvatar> {
  const res = await server.inject({ method: 'GET', url: '/api/catalogue/avatars' });
  return (res.json().avatars as CatalogueAvatar[]).find((a) => a.type === '2d')!;
}

/** An open conversation record with two timed turns, for the online-user and latency lists. Its
 *  last heartbeat is ten minutes ahead, so the runtime's sweep of dead processes' records leaves it
 *  open while a file runs (and ten minutes stay well inside the free plan's 30). */
async function conversation(server: TestServer, ownerId: string, avatar: Avatar, userName: string): Promise<string> {
  const id = randomUUID();
  const now = server.ctx.now();
  await startConversation(server.ctx.db, {
    id,
    owner_id: ownerId,
    avatar_id: avatar.id,
    avatar_name: avatar.name,
    avatar_type: avatar.dhType,
    user_id: `user-${id}`,
    user_name: userName,
    device_id: `device-${id}`,
    device_os: 'Linux',
    locale: 'en-US',
    spoken_language: 'en-US',
    ip_address: '203.0.113.7',
    node_id: server.app.runtime.localNode.id,
    started_at: now,
    last_seen_at: new Date(now.getTime() + 10 * 60_000),
  });
  for (const ms of [120, 340]) {
    server.app.runtime.turns.add({
      conversationId: id,
      ownerId,
      avatarId: avatar.id,
      at: now,
      firstDeltaMs: ms,
      engineMs: ms * 2,
      retrievalMs: 5,
      interrupted: false,
    });
  }
  await server.app.runtime.turns.flush();
  return id;
}

async function party(
  server: TestServer,
  prefix: string,
  extra: Record<string, unknown>,
  uploads: Parameters<typeof save>[3] = [],
): Promise<Party> {
  const account = await createCustomer(server, prefix);
  const look = await appearance(server);
  const saved = await save(
    server,
    account.token,
    { name: `${prefix} avatar`, dhType: look.type, appearanceId: look.id, ...extra },
    uploads,
  );
  expect(saved.statusCode, saved.body).toBe(200);
  const avatar = saved.json().agent as Avatar;
  const jwt = await kbToken(server, account);
  const collection = await ok(kb(server, jwt, 'POST', '/kb/v1/collections', { name: `${prefix} collection` }));
  const sessionId = await conversation(server, account.id, avatar, `Guest of ${prefix}`);
  const gapId = await createGap(server.ctx.db, {
    ownerId: account.id,
    avatarId: avatar.id,
    question: `Gap of ${prefix}?`,
    at: server.ctx.now(),
  });
  return { ...account, jwt, avatar, collectionId: collection.id as string, sessionId, gapId };
}

export async function buildWorld(server: TestServer): Promise<World> {
  const canaries = {
    restApiKey: canarySecret('restApiKey'),
    jsonKey: canarySecret('jsonKey'),
    jsonKeyBase64: canarySecret('jsonKeyBase64'),
    billingAuthHeader: canarySecret('billingAuthHeader'),
    llmApiKey: canarySecret('pipelineLlmApiKey'),
    sttApiKey: canarySecret('pipelineSttApiKey'),
    ttsSecretKey: canarySecret('pipelineTtsSecretKey'),
    thirdPartyApiKey: canarySecret('pipelineThirdPartyApiKey'),
    oauthClientSecret: canarySecret('oauthClientSecret'),
  };
  const v = await party(
    server,
    `victim${VICTIM_MARK}`,
    {
      name: `Avatar ${VICTIM_MARK}`,
      restApiKey: canaries.restApiKey,
      jsonKey: canaries.jsonKey,
      billingAuthHeader: canaries.billingAuthHeader,
      avatarJson: { panel: { Enable: true, contentURL: UPLOAD_REF.backgroundImage } },
      customData: {
        agent_pipeline_config: {
          llm: { provider: 'openai', api_key: canaries.llmApiKey },
          stt: { provider: 'deepgram', api_key: canaries.sttApiKey },
          tts: { provider: 'polly', secret_key: canaries.ttsSecretKey },
          third_party: { agent_id: 'x', api_key: canaries.thirdPartyApiKey },
        },
      },
    },
    [{ field: 'backgroundImage', data: fileOf('png', 2048), filename: 'bg.png' }],
  );
  const mediaPath = v.avatar.avatarJson.panel?.contentURL ?? '';
  const mediaFile = /\/media\/([^/]+)$/.exec(mediaPath)?.[1];
  expect(mediaFile, mediaPath).toBeTruthy();

  const oauth = await ok(
    server.inject({
      method: 'POST',
      url: '/api/add_oauthapp',
      token: v.token,
      payload: {
        appName: `OAuth ${VICTIM_MARK}`,
        partner: 'Google',
        clientId: 'client-id',
        clientSecret: canaries.oauthClientSecret,
        oauthURL: 'https://accounts.example.com/auth',
        tokenIssueURL: 'https://accounts.example.com/token',
      },
    }),
  );
  const fns = await ok(
    server.inject({
      method: 'POST',
      url: '/api/functions',
      token: v.token,
      payload: { functions: [{ action: 'new', name: `fn_${VICTIM_MARK}`, code: 'def fn():\n    return 1\n' }] },
    }),
  );
  const fn = (fns.functions as { id: string; name: string; template: boolean }[]).find((f) => !f.template && f.name.includes(VICTIM_MARK))!;
  const admin = await createAdmin(server);
  await ok(
    server.inject({ method: 'POST', url: '/api/admin/function_decision', token: admin.token, payload: { id: fn.id, approve: true } }),
  );
  const key = await ok(server.inject({ method: 'POST', url: '/api/enc/add', token: v.token, payload: { name: `Key ${VICTIM_MARK}` } }));
  const item = await ok(
    kb(server, v.jwt, 'POST', `/kb/v1/collections/${v.collectionId}/items`, {
      name: `Item ${VICTIM_MARK}`,
      knowledge_type: { text: { content: `The secret recipe ${VICTIM_MARK} is kept here.` } },
    }),
  );
  const upload = kbMultipart('file', `notes-${VICTIM_MARK}.txt`, Buffer.from(`notes ${VICTIM_MARK}\n`), 'text/plain');
  const file = await ok(
    server.inject({
      method: 'POST',
      url: '/kb/v1/files',
      appKey: null,
      headers: { ...upload.headers, authorization: `Bearer ${v.jwt}` },
      payload: upload.payload,
    }),
  );
  // A second collection name carries the mark too (the first one is named by party()).
  await ok(kb(server, v.jwt, 'PUT', `/kb/v1/collections/${v.collectionId}`, { name: `Collection ${VICTIM_MARK}` }));
  const worker = startKnowledgeWorker(server.ctx, { pollMs: 60_000 });
  await worker.drain();
  await worker.stop();

  const victim: Victim = {
    ...v,
    mediaPath,
    mediaFile: mediaFile!,
    oauthAppId: oauth.appId as number,
    functionId: fn.id,
    encKeyId: (key.key as { id: string }).id,
    itemId: item.id as string,
    kbFileId: String(file.url).split('/').pop()!,
    canaries,
  };
  // The JSON key may also come base64-encoded: the attacker's own avatar sends it that way.
  const attacker = await party(server, 'attacker', { jsonKeyBase64: Buffer.from(canaries.jsonKeyBase64).toString('base64') });
  const catalogue = (await server.inject({ method: 'GET', url: '/api/brain/catalogue', token: attacker.token })).json() as BrainCatalogue;
  return { victim, attacker, admin, catalogue, nodeId: server.app.runtime.localNode.id };
}
