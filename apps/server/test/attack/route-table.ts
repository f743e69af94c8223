// How to call every route the server registers, for the attack tests. The tenant-isolation test
// compares this table with the routes the server itself enumerates: a route missing here (or a
// route here the server no longer has) fails it, and so does a route that takes an id (a path
// parameter, or an id field in its body schema) without calls that use another account's ids.
import { createHmac } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import type { TestAccount } from '../accounts';
import { multipart } from '../avatar-requests';
import type { Party, World } from './world';

/** public: no account (by design, or guarded by a token of its own); app: the application key
 *  only (sign-in, registration); customer and kb: a signed-in account (session, or knowledge
 *  JWT); admin: administrators only (403 for customers); ws: a WebSocket upgrade. */
export type Kind = 'public' | 'app' | 'customer' | 'kb' | 'admin' | 'ws';

export interface Req {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
  /** The status a foreign call must get (404 unless said). */
  expect?: number;
}

export interface RouteCase {
  kind: Kind;
  /** Registered only in some setups (the player's files exist only once the player is built). */
  optional?: boolean;
  /** Why a public or app route that names an id may do so. */
  why?: string;
  /** The attacker calling with the victim's ids: each answers `expect` (404) and no row of any
   *  table changes. */
  foreign?: (w: World) => Req[];
  /** The attacker passing the victim's ids into its own things: answered, but nothing of the
   *  victim's changes and the answer names none of the victim's ids. */
  ignored?: (w: World) => Req[];
  /** A list or search of the attacker's: its answer holds none of the victim's rows. */
  list?: (w: World) => Req;
  /** A well-formed call (for the bad-input and secrets sweeps); `null` = not called. */
  sample?: ((w: World) => Req) | null;
}

const json = (method: Req['method'], url: string, payload?: unknown, extra: Partial<Req> = {}): Req => ({
  method,
  url,
  ...(payload === undefined ? {} : { payload }),
  ...extra,
});

function avatarSave(payload: Record<string, unknown>): Req {
  const body = multipart([{ name: 'json', value: JSON.stringify(payload) }]);
  return { method: 'POST', url: '/api/avatar_v2/add', payload: body.payload, headers: body.headers };
}

/** An own model's viseme atlas upload (decision 127): a manifest that is not checked before the
 *  avatar is (another account's avatar: 404; one without an uploaded model: 400). */
function atlasUpload(avatarId: string): Req {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const body = multipart([
    { name: 'manifest', value: JSON.stringify({ format: 'parla-image-avatar', version: 1 }) },
    { name: 'atlas', value: png, filename: 'atlas.png' },
    { name: 'still', value: png, filename: 'still.png' },
  ]);
  return { method: 'POST', url: `/api/avatar/${avatarId}/own_model_atlas`, payload: body.payload, headers: body.headers };
}

const gapAnswer = (collectionId: string) => ({ collectionId, question: 'Do you ship?', answer: 'Yes, everywhere.' });
/** The insight's range: the last week (the world's conversations are today's). */
function insightRange(): string {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return `from=${day(Date.now() - 6 * 86_400_000)}&to=${day(Date.now() + 86_400_000)}`;
}

/** A masked key as the forms send it back. */
const MASK = '••••abcd';

const oauthBody = {
  appName: 'Mine',
  partner: 'Google',
  clientId: 'cid',
  clientSecret: 'not-a-secret-1',
  oauthURL: 'https://accounts.example.com/a',
  tokenIssueURL: 'https://accounts.example.com/t',
};

export const ROUTES: Record<string, RouteCase> = {
  // ---- public and application-key routes
  'GET /api/health': { kind: 'public', sample: () => json('GET', '/api/health') },
  // Operators' metrics: 404 unless METRICS_TOKEN is set, then only with that bearer token (decision 630).
  'GET /metrics': { kind: 'public', sample: () => json('GET', '/metrics') },
  'GET /api/portal_settings': { kind: 'public', sample: () => json('GET', '/api/portal_settings') },
  'GET /api/catalogue/avatars': { kind: 'public', sample: () => json('GET', '/api/catalogue/avatars') },
  'GET /api/catalogue/environments': { kind: 'public', sample: () => json('GET', '/api/catalogue/environments') },
  'GET /catalogue/files/*': {
    kind: 'public',
    why: 'the generated catalogue, the same for everybody',
    sample: () => json('GET', '/catalogue/files/none.png', undefined, { expect: 404 }),
  },
  'HEAD /catalogue/files/*': { kind: 'public', why: 'the generated catalogue, the same for everybody', sample: null },
  'GET /player/assets/*': {
    kind: 'public',
    optional: true,
    why: "the player's built files, the same for everybody",
    sample: () => json('GET', '/player/assets/none.js', undefined, { expect: 404 }),
  },
  'HEAD /player/assets/*': { kind: 'public', optional: true, why: "the player's built files, the same for everybody", sample: null },
  'GET /avatar/preview': { kind: 'public', sample: () => json('GET', '/avatar/preview') },
  'GET /avatar/:avatarId': {
    kind: 'public',
    why: 'the player page is the same shell for every avatar; its data comes from the token-guarded public view',
    sample: (w) => json('GET', `/avatar/${w.victim.avatar.id}`),
  },
  'GET /api/public/avatar/:id': {
    kind: 'public',
    why: "the player's view of an avatar: it needs the avatar's token (or a key-signed access token)",
    foreign: (w) => [
      json('GET', `/api/public/avatar/${w.victim.avatar.id}`, undefined, { expect: 401 }),
      json('GET', `/api/public/avatar/${w.victim.avatar.id}?token=${w.attacker.avatar.token}`, undefined, { expect: 401 }),
    ],
    sample: (w) => json('GET', `/api/public/avatar/${w.victim.avatar.id}?token=${w.victim.avatar.token}`),
  },
  'GET /config-files/avatars/:id/media/:file': {
    kind: 'public',
    why: 'media of an avatar are public (the player on any site loads them); a file is served only under its own avatar',
    foreign: (w) => [json('GET', `/config-files/avatars/${w.attacker.avatar.id}/media/${w.victim.mediaFile}`)],
    sample: (w) => json('GET', w.victim.mediaPath.replace(/^https?:\/\/[^/]+/, '')),
  },
  'GET /api/oauth/start/:avatarId': {
    kind: 'public',
    why: "sends an end user to the sign-in page of the avatar's OAuth partner before a conversation (the player links to it); it answers nothing of the account",
    sample: (w) => json('GET', `/api/oauth/start/${w.attacker.avatar.id}`, undefined, { expect: 404 }),
  },
  'GET /api/oauth/callback/:appId': {
    kind: 'public',
    why: 'the partner sends the end user back here: guarded by the signed, expiring, single-use state /api/oauth/start made and the cookie it set in that browser, not by an account',
    // A made-up state, and one claiming the victim's app with a signature of its own: refused, no grant made.
    foreign: (w) => [
      json('GET', `/api/oauth/callback/${w.victim.oauthAppId}?code=stolen&state=${forgedState(w)}`, undefined, { expect: 401 }),
      json('GET', `/api/oauth/callback/${w.victim.oauthAppId}?code=stolen&state=nonsense`, undefined, { expect: 401 }),
    ],
    sample: (w) => json('GET', `/api/oauth/callback/${w.victim.oauthAppId}?code=x&state=y.z`, undefined, { expect: 401 }),
  },
  'POST /api/conversation/callback/:sessionId': {
    kind: 'public',
    why: "the customer's REST endpoint pushes a message into a live conversation: guarded by that conversation's own callback secret, sent only to the endpoint",
    // Without the secret, with a guessed one and with another secret the attacker knows: not found.
    // (tenant-isolation.test.ts also tries them on a live conversation.)
    foreign: (w) => [
      json('POST', `/api/conversation/callback/${w.victim.sessionId}`, { message: 'planted' }),
      json('POST', `/api/conversation/callback/${w.victim.sessionId}?token=${'0'.repeat(64)}`, { message: 'planted' }),
      json('POST', `/api/conversation/callback/${w.victim.sessionId}?token=${w.attacker.avatar.token}`, { message: 'planted' }),
    ],
    sample: (w) =>
      json('POST', `/api/conversation/callback/${w.attacker.sessionId}?token=${'0'.repeat(64)}`, { message: 'hello' }, { expect: 404 }),
  },
  'GET /ws/conversation': {
    kind: 'ws',
    why: "the end user's conversation: the runtime checks the avatar's own token or a key-signed access token before anything (runtime tests and SSRF entry points open real ones)",
    sample: null,
  },
  'GET /ws/node': { kind: 'ws', why: 'pipeline nodes register here with the node secret (401 without it)', sample: null },
  'POST /api/login': {
    kind: 'app',
    why: "adminSessionId is the single-use code an administrator's impersonation made, not an account's id",
    sample: (w) => json('POST', '/api/login', { email: w.attacker.email, password: 'wrong password 1' }, { expect: 401 }),
  },
  'POST /api/register': {
    kind: 'app',
    sample: () =>
      json('POST', '/api/register', {
        firstName: 'A',
        lastName: 'B',
        email: 'sample-register@example.com',
        password: 'correct horse battery',
      }),
  },
  'POST /api/email_verification': {
    kind: 'app',
    sample: () =>
      json('POST', '/api/email_verification', { verificationCode: 'nope', mode: 'verify', password: 'whatever password' }, { expect: 400 }),
  },
  'POST /api/forgot_password': { kind: 'app', sample: (w) => json('POST', '/api/forgot_password', { email: w.attacker.email }) },
  'POST /api/reset_password': {
    kind: 'app',
    sample: () => json('POST', '/api/reset_password', { resetToken: 'nope', mode: 'validate' }, { expect: 400 }),
  },

  // ---- the signed-in account
  'GET /api/logout': { kind: 'customer', sample: null },
  'GET /api/token/jwt': { kind: 'customer', sample: () => json('GET', '/api/token/jwt') },
  'GET /api/account_info': {
    kind: 'customer',
    list: () => json('GET', '/api/account_info'),
    sample: () => json('GET', '/api/account_info'),
  },
  'GET /api/account_stats': {
    kind: 'customer',
    list: () => json('GET', `/api/account_stats?startDate=0&endDate=${Date.now() + 86_400_000}`),
    sample: () => json('GET', `/api/account_stats?startDate=0&endDate=${Date.now() + 86_400_000}`),
  },
  // The account export (decision 625): the caller's own data, no id taken.
  'GET /api/account/export': {
    kind: 'customer',
    list: () => json('GET', '/api/account/export'),
    sample: () => json('GET', '/api/account/export'),
  },
  'POST /api/account_upgrade': { kind: 'customer', sample: () => json('POST', '/api/account_upgrade', { subType: 2 }) },
  // Takes no id: it withdraws the caller's own pending request, whatever the body says.
  'POST /api/account_upgrade/cancel': { kind: 'customer', sample: () => json('POST', '/api/account_upgrade/cancel', {}) },
  'GET /api/list_oauthapp': {
    kind: 'customer',
    list: () => json('GET', '/api/list_oauthapp'),
    sample: () => json('GET', '/api/list_oauthapp'),
  },
  'POST /api/add_oauthapp': {
    kind: 'customer',
    foreign: (w) => [json('POST', '/api/add_oauthapp', { ...oauthBody, appId: w.victim.oauthAppId })],
    sample: () => json('POST', '/api/add_oauthapp', oauthBody),
  },
  'POST /api/del_oauthapp': {
    kind: 'customer',
    foreign: (w) => [json('POST', '/api/del_oauthapp', { appId: w.victim.oauthAppId, mode: 'delete' })],
    sample: null,
  },
  'GET /api/functions': { kind: 'customer', list: () => json('GET', '/api/functions'), sample: () => json('GET', '/api/functions') },
  'POST /api/functions': {
    kind: 'customer',
    foreign: (w) => [
      json('POST', '/api/functions', {
        functions: [{ action: 'update', id: w.victim.functionId, name: 'taken', code: 'def taken():\n    return 2\n' }],
      }),
      json('POST', '/api/functions', { functions: [{ action: 'delete', id: w.victim.functionId }] }),
    ],
    sample: () =>
      json('POST', '/api/functions', { functions: [{ action: 'new', name: 'sample_fn', code: 'def sample_fn():\n    return 1\n' }] }),
  },
  // Try it runs code in the sandbox (a process of ~190 MB): not part of the sweeps; its own tests
  // send bad input (function-try.routes.test.ts).
  'POST /api/functions/try': {
    kind: 'customer',
    foreign: (w) => [json('POST', '/api/functions/try', { id: w.victim.functionId, functionName: 'f', arguments: '{}' })],
    sample: null,
  },
  'GET /api/functions/:id/calls': {
    kind: 'customer',
    foreign: (w) => [json('GET', `/api/functions/${w.victim.functionId}/calls`)],
    sample: null,
  },
  'GET /api/realtime_functions': {
    kind: 'customer',
    list: () => json('GET', '/api/realtime_functions'),
    sample: () => json('GET', '/api/realtime_functions'),
  },
  'GET /api/enc/list': { kind: 'customer', list: () => json('GET', '/api/enc/list'), sample: () => json('GET', '/api/enc/list') },
  'POST /api/enc/add': {
    kind: 'customer',
    // The id is accepted by the schema but a new key is always made (the victim's key is untouched).
    ignored: (w) => [json('POST', '/api/enc/add', { id: w.victim.encKeyId, name: 'Mine' })],
    sample: () => json('POST', '/api/enc/add', { name: 'Sample key' }),
  },
  'POST /api/enc/del': {
    kind: 'customer',
    foreign: (w) => [json('POST', '/api/enc/del', { id: w.victim.encKeyId, mode: 'delete' })],
    sample: null,
  },
  'GET /api/avatar/list': {
    kind: 'customer',
    list: () => json('GET', '/api/avatar/list'),
    // Searching for the victim's avatar id finds nothing of the victim's.
    ignored: (w) => [
      json('GET', `/api/avatar/list?search=${w.victim.avatar.id}`),
      json('GET', `/api/avatar/list?search=${w.victim.avatar.id.slice(0, 8)}&limit=5&offset=0`),
    ],
    sample: () => json('GET', '/api/avatar/list?limit=20&offset=0&search=a'),
  },
  'GET /api/avatar/:id': {
    kind: 'customer',
    foreign: (w) => [json('GET', `/api/avatar/${w.victim.avatar.id}`)],
    sample: (w) => json('GET', `/api/avatar/${w.attacker.avatar.id}`),
  },
  'POST /api/avatar_v2/add': {
    kind: 'customer',
    foreign: (w) => [
      avatarSave({
        id: w.victim.avatar.id,
        updated: w.victim.avatar.updated,
        name: 'Taken',
        dhType: w.victim.avatar.dhType,
        appearanceId: w.victim.avatar.appearanceId,
      }),
      // The attacker's own avatar signing its end users in with the victim's OAuth config.
      avatarSave({ ...w.attacker.avatar, oauthEnabled: 1, partnerOauthAppId: String(w.victim.oauthAppId) }),
    ],
    // The attacker's own avatar naming the victim's collection, function, key and stored media.
    ignored: (w) => [
      avatarSave({
        ...w.attacker.avatar,
        encKeyId: w.victim.encKeyId,
        functions: [w.victim.functionId],
        customData: { ...w.attacker.avatar.customData, collection_ids: [w.victim.collectionId] },
        avatarJson: { ...w.attacker.avatar.avatarJson, panel: { Enable: true, contentURL: w.victim.mediaPath } },
        mediaDetails: { backgroundImage: [w.victim.mediaFile], scene: [] },
      }),
    ],
    sample: (w) => avatarSave({ name: 'Sample', dhType: w.attacker.avatar.dhType, appearanceId: w.attacker.avatar.appearanceId }),
  },
  'POST /api/avatar/:id/own_model_atlas': {
    kind: 'customer',
    foreign: (w) => [atlasUpload(w.victim.avatar.id)],
    sample: (w) => atlasUpload(w.attacker.avatar.id),
  },
  'POST /api/avatar/regenerate_token': {
    kind: 'customer',
    foreign: (w) => [json('POST', '/api/avatar/regenerate_token', { agentId: w.victim.avatar.id })],
    // No sample: it would replace the world's avatar tokens the other attack files connect with
    // (its answer is a fresh random token; test/attack/access.test.ts covers it).
    sample: null,
  },
  'POST /api/avatar/del': {
    kind: 'customer',
    foreign: (w) => [json('POST', '/api/avatar/del', { agentId: w.victim.avatar.id, mode: 'delete' })],
    sample: null,
  },
  'POST /api/list_avatar_users': {
    kind: 'customer',
    foreign: (w) => [json('POST', '/api/list_avatar_users', { agentId: w.victim.avatar.id, mode: 'get' })],
    sample: (w) => json('POST', '/api/list_avatar_users', { agentId: w.attacker.avatar.id, mode: 'get' }),
  },
  'GET /config-files/avatars/:id/avatar.json': {
    kind: 'customer',
    foreign: (w) => [json('GET', `/config-files/avatars/${w.victim.avatar.id}/avatar.json`)],
    sample: (w) => json('GET', `/config-files/avatars/${w.attacker.avatar.id}/avatar.json`),
  },
  'GET /config-files/avatars/:id/client.json': {
    kind: 'customer',
    foreign: (w) => [json('GET', `/config-files/avatars/${w.victim.avatar.id}/client.json`)],
    sample: (w) => json('GET', `/config-files/avatars/${w.attacker.avatar.id}/client.json`),
  },

  // ---- conversations of the account's avatars
  'GET /api/avatars/:avatarId/conversations': {
    kind: 'customer',
    foreign: (w) => [json('GET', `/api/avatars/${w.victim.avatar.id}/conversations`)],
    list: (w) => json('GET', `/api/avatars/${w.attacker.avatar.id}/conversations`),
    sample: (w) => json('GET', `/api/avatars/${w.attacker.avatar.id}/conversations?page=1&pageSize=5`),
  },
  'GET /api/avatars/:avatarId/knowledge-gaps': {
    kind: 'customer',
    foreign: (w) => [json('GET', `/api/avatars/${w.victim.avatar.id}/knowledge-gaps`)],
    list: (w) => json('GET', `/api/avatars/${w.attacker.avatar.id}/knowledge-gaps?status=open`),
    sample: (w) => json('GET', `/api/avatars/${w.attacker.avatar.id}/knowledge-gaps?status=open&page=1&pageSize=5`),
  },
  'POST /api/avatars/:avatarId/knowledge-gaps/:gapId/answer': {
    kind: 'customer',
    foreign: (w) => [
      json('POST', `/api/avatars/${w.victim.avatar.id}/knowledge-gaps/${w.victim.gapId}/answer`, gapAnswer(w.victim.collectionId)),
      json('POST', `/api/avatars/${w.attacker.avatar.id}/knowledge-gaps/${w.victim.gapId}/answer`, gapAnswer(w.attacker.collectionId)),
    ],
    // The attacker's own gap answered into the victim's collection: refused (not one of the avatar's).
    ignored: (w) => [
      json('POST', `/api/avatars/${w.attacker.avatar.id}/knowledge-gaps/${w.attacker.gapId}/answer`, gapAnswer(w.victim.collectionId)),
    ],
    sample: (w) =>
      json('POST', `/api/avatars/${w.attacker.avatar.id}/knowledge-gaps/${w.attacker.gapId}/answer`, gapAnswer(w.attacker.collectionId), {
        expect: 400,
      }),
  },
  'POST /api/avatars/:avatarId/knowledge-gaps/:gapId/dismiss': {
    kind: 'customer',
    foreign: (w) => [json('POST', `/api/avatars/${w.attacker.avatar.id}/knowledge-gaps/${w.victim.gapId}/dismiss`)],
    sample: null,
  },
  'GET /api/avatars/:avatarId/insight': {
    kind: 'customer',
    foreign: (w) => [json('GET', `/api/avatars/${w.victim.avatar.id}/insight?${insightRange()}`)],
    sample: (w) => json('GET', `/api/avatars/${w.attacker.avatar.id}/insight?${insightRange()}`),
  },
  'GET /api/avatars/:avatarId/insight/conversations': {
    kind: 'customer',
    foreign: (w) => [json('GET', `/api/avatars/${w.victim.avatar.id}/insight/conversations?${insightRange()}`)],
    list: (w) => json('GET', `/api/avatars/${w.attacker.avatar.id}/insight/conversations?${insightRange()}`),
    sample: (w) => json('GET', `/api/avatars/${w.attacker.avatar.id}/insight/conversations?${insightRange()}&page=1&pageSize=5`),
  },
  'GET /api/avatars/:avatarId/insight/export': {
    kind: 'customer',
    foreign: (w) => [json('GET', `/api/avatars/${w.victim.avatar.id}/insight/export?${insightRange()}&format=csv`)],
    sample: (w) => json('GET', `/api/avatars/${w.attacker.avatar.id}/insight/export?${insightRange()}&format=json`),
  },
  'GET /api/conversations/:id/transcript': {
    kind: 'customer',
    foreign: (w) => [
      json('GET', `/api/conversations/${w.victim.sessionId}/transcript`),
      json('GET', `/api/conversations/${w.victim.sessionId}/transcript?format=text&download=1`),
    ],
    sample: (w) => json('GET', `/api/conversations/${w.attacker.sessionId}/transcript?format=json`),
  },
  'GET /api/conversation/transcript/:id': {
    kind: 'public',
    why: "the end user's own transcript download: guarded by a key derived from the server's secret and that conversation's id, sent only in that conversation's ready (and refused when the avatar does not allow downloads)",
    // No key, a guessed key, and the attacker's own avatar token: not found.
    foreign: (w) => [
      json('GET', `/api/conversation/transcript/${w.victim.sessionId}?key=${'A'.repeat(43)}`),
      json('GET', `/api/conversation/transcript/${w.victim.sessionId}?key=${w.attacker.avatar.token}`),
    ],
    sample: (w) => json('GET', `/api/conversation/transcript/${w.attacker.sessionId}?key=${'A'.repeat(43)}`, undefined, { expect: 404 }),
  },
  'POST /api/list_my_online_users': {
    kind: 'customer',
    list: () => json('POST', '/api/list_my_online_users', { mode: 'get' }),
    sample: () => json('POST', '/api/list_my_online_users', { mode: 'get' }),
  },
  'POST /api/get_my_online_user': {
    kind: 'customer',
    foreign: (w) => [json('POST', '/api/get_my_online_user', { sessionId: w.victim.sessionId, mode: 'get' })],
    sample: (w) => json('POST', '/api/get_my_online_user', { sessionId: w.attacker.sessionId, mode: 'get' }),
  },
  'POST /api/list_my_latency': {
    kind: 'customer',
    list: () => json('POST', '/api/list_my_latency', { mode: 'get' }),
    sample: () => json('POST', '/api/list_my_latency', { mode: 'get' }),
  },
  'POST /api/avatar_latency': {
    kind: 'customer',
    foreign: (w) => [json('POST', '/api/avatar_latency', { agentId: w.victim.avatar.id })],
    sample: (w) => json('POST', '/api/avatar_latency', { agentId: w.attacker.avatar.id }),
  },

  // ---- Brain look-ups (a masked key with an avatar id means that avatar's stored key)
  'GET /api/brain/catalogue': { kind: 'customer', sample: () => json('GET', '/api/brain/catalogue') },
  // A built-in voice's sample: the same for everybody. Its parameter names one of the server's
  // voices, no account's thing: any other name is refused by the schema, whoever asks.
  'GET /api/tts/embedded_sample/:voice': {
    kind: 'customer',
    foreign: () => [json('GET', '/api/tts/embedded_sample/not-a-voice', undefined, { expect: 400 })],
    sample: () => json('GET', '/api/tts/embedded_sample/slt'),
  },

  // The editor's preview says a text in a built-in voice: no account's thing either.
  'POST /api/tts/preview': {
    kind: 'customer',
    foreign: () => [json('POST', '/api/tts/preview', { voice: 'not-a-voice', text: 'Hello.' }, { expect: 400 })],
    sample: () => json('POST', '/api/tts/preview', { voice: 'slt', text: 'Hello.' }),
  },

  'POST /api/proxy': {
    kind: 'customer',
    foreign: (w) => [
      json('POST', '/api/proxy', {
        url: `${w.catalogue.endpoints.deepgram}/models`,
        headers: { Authorization: `Token ${MASK}` },
        avatarId: w.victim.avatar.id,
        secretRef: 'stt',
      }),
    ],
    sample: null,
  },
  'POST /api/stt/list_voices': { kind: 'customer', sample: () => json('POST', '/api/stt/list_voices', { sttProvider: 'azure' }) },
  'POST /api/tts/list_voices': {
    kind: 'customer',
    foreign: (w) => [
      json('POST', '/api/tts/list_voices', { ttsProvider: 'elevenlabs', elevenLabsAPIKey: MASK, avatarId: w.victim.avatar.id }),
    ],
    sample: null,
  },
  'POST /api/llm/models': {
    kind: 'customer',
    foreign: (w) => [
      json('POST', '/api/llm/models', { baseUrl: w.catalogue.llmProviders[0]!.baseUrl, apiKey: MASK, avatarId: w.victim.avatar.id }),
    ],
    sample: null,
  },
  'POST /api/llm/assistants': {
    kind: 'customer',
    foreign: (w) => [
      json('POST', '/api/llm/assistants', {
        baseUrl: (w.catalogue.llmProviders.find((p) => p.assistants) ?? w.catalogue.llmProviders[0]!).baseUrl,
        apiKey: MASK,
        avatarId: w.victim.avatar.id,
      }),
    ],
    sample: null,
  },
  'POST /api/third_party/agent_check': {
    kind: 'customer',
    foreign: (w) => [
      json('POST', '/api/third_party/agent_check', {
        agent_id: 'agent_0123456789abcdefghij0123',
        api_key: MASK,
        avatarId: w.victim.avatar.id,
      }),
    ],
    sample: null,
  },

  'POST /api/brain/test': {
    kind: 'customer',
    // The victim's own avatar as its owner's editor would send it: another account gets a 404.
    foreign: (w) => [
      json('POST', '/api/brain/test', {
        id: w.victim.avatar.id,
        name: w.victim.avatar.name,
        dhType: w.victim.avatar.dhType,
        appearanceId: w.victim.avatar.appearanceId,
      }),
    ],
    sample: null,
  },

  // ---- the knowledge API (JWT)
  'GET /kb/v1/collections': { kind: 'kb', list: () => json('GET', '/kb/v1/collections'), sample: () => json('GET', '/kb/v1/collections') },
  'POST /kb/v1/collections': { kind: 'kb', sample: () => json('POST', '/kb/v1/collections', { name: 'Sample collection' }) },
  'PUT /kb/v1/collections/:id': {
    kind: 'kb',
    foreign: (w) => [json('PUT', `/kb/v1/collections/${w.victim.collectionId}`, { name: 'Taken' })],
    sample: (w) => json('PUT', `/kb/v1/collections/${w.attacker.collectionId}`, { name: 'Renamed' }),
  },
  'DELETE /kb/v1/collections/:id': {
    kind: 'kb',
    foreign: (w) => [json('DELETE', `/kb/v1/collections/${w.victim.collectionId}`)],
    sample: null,
  },
  'GET /kb/v1/collections/:id/items': {
    kind: 'kb',
    foreign: (w) => [json('GET', `/kb/v1/collections/${w.victim.collectionId}/items`)],
    list: (w) => json('GET', `/kb/v1/collections/${w.attacker.collectionId}/items`),
    sample: (w) => json('GET', `/kb/v1/collections/${w.attacker.collectionId}/items`),
  },
  'POST /kb/v1/collections/:id/items': {
    kind: 'kb',
    foreign: (w) => [
      json('POST', `/kb/v1/collections/${w.victim.collectionId}/items`, {
        name: 'Taken',
        knowledge_type: { text: { content: 'planted' } },
      }),
      // The victim's uploaded file into the attacker's own collection.
      json('POST', `/kb/v1/collections/${w.attacker.collectionId}/items`, {
        name: 'Taken',
        knowledge_type: { file: { file_name: 'notes.txt', file_type: 'text/plain', url: `/kb/v1/files/${w.victim.kbFileId}` } },
      }),
    ],
    sample: (w) =>
      json('POST', `/kb/v1/collections/${w.attacker.collectionId}/items`, {
        name: 'Sample',
        knowledge_type: { text: { content: 'Sample text.' } },
      }),
  },
  'POST /kb/v1/collections/:id/items/batch': {
    kind: 'kb',
    foreign: (w) => [
      json('POST', `/kb/v1/collections/${w.victim.collectionId}/items/batch`, {
        items: [{ name: 'Taken', knowledge_type: { text: { content: 'planted' } } }],
      }),
    ],
    ignored: (w) => [
      json('POST', `/kb/v1/collections/${w.attacker.collectionId}/items/batch`, {
        items: [
          {
            name: 'Taken',
            knowledge_type: { file: { file_name: 'notes.txt', file_type: 'text/plain', url: `/kb/v1/files/${w.victim.kbFileId}` } },
          },
        ],
      }),
    ],
    sample: (w) =>
      json('POST', `/kb/v1/collections/${w.attacker.collectionId}/items/batch`, {
        items: [{ name: 'Batch', knowledge_type: { text: { content: 'Batch text.' } } }],
      }),
  },
  'DELETE /kb/v1/items/:id': { kind: 'kb', foreign: (w) => [json('DELETE', `/kb/v1/items/${w.victim.itemId}`)], sample: null },
  'POST /kb/v1/items/:id/retry': { kind: 'kb', foreign: (w) => [json('POST', `/kb/v1/items/${w.victim.itemId}/retry`)], sample: null },
  'GET /kb/v1/items/:id/chunks': { kind: 'kb', foreign: (w) => [json('GET', `/kb/v1/items/${w.victim.itemId}/chunks`)], sample: null },
  'POST /kb/v1/items/:id/resync': { kind: 'kb', foreign: (w) => [json('POST', `/kb/v1/items/${w.victim.itemId}/resync`)], sample: null },
  'POST /kb/v1/files': { kind: 'kb', sample: null },
  'GET /kb/v1/files/:id': { kind: 'kb', foreign: (w) => [json('GET', `/kb/v1/files/${w.victim.kbFileId}`)], sample: null },
  'POST /kb/v1/crawl': { kind: 'kb', sample: null },
  'PUT /kb/v1/collections/:id/crawl-schedule': {
    kind: 'kb',
    foreign: (w) => [json('PUT', `/kb/v1/collections/${w.victim.collectionId}/crawl-schedule`, { schedule: 'off' })],
    sample: (w) => json('PUT', `/kb/v1/collections/${w.attacker.collectionId}/crawl-schedule`, { schedule: 'off' }),
  },
  'POST /kb/v1/search': {
    kind: 'kb',
    foreign: (w) => [
      json('POST', '/kb/v1/search', { collection_ids: [w.victim.collectionId], query: 'recipe' }),
      json('POST', '/kb/v1/search', { collection_ids: [w.attacker.collectionId, w.victim.collectionId], query: 'recipe' }),
    ],
    list: (w) => json('POST', '/kb/v1/search', { collection_ids: [w.attacker.collectionId], query: `recipe ${'VICTIMMARK'}` }),
    sample: (w) => json('POST', '/kb/v1/search', { collection_ids: [w.attacker.collectionId], query: 'sample' }),
  },

  // ---- administrators
  'POST /api/admin/impersonate': { kind: 'admin', sample: null },
  'GET /api/admin/mail_status': { kind: 'admin', sample: () => json('GET', '/api/admin/mail_status') },
  'GET /api/admin/backup': { kind: 'admin', sample: null },
  'GET /api/admin/customers': { kind: 'admin', sample: () => json('GET', '/api/admin/customers?search=') },
  'POST /api/admin/subscription_decision': { kind: 'admin', sample: null },
  'POST /api/admin/customer_status': { kind: 'admin', sample: null },
  'GET /api/admin/functions': { kind: 'admin', sample: () => json('GET', '/api/admin/functions') },
  'GET /api/admin/functions/:id/history': {
    kind: 'admin',
    sample: (w) => json('GET', `/api/admin/functions/${w.victim.functionId}/history`),
  },
  'POST /api/admin/function_decision': { kind: 'admin', sample: null },
  'POST /api/list_online_users': { kind: 'admin', sample: () => json('POST', '/api/list_online_users', { mode: 'get' }) },
  'POST /api/get_online_user': {
    kind: 'admin',
    sample: (w) => json('POST', '/api/get_online_user', { sessionId: w.victim.sessionId, mode: 'get' }),
  },
  'GET /api/list_vps': { kind: 'admin', sample: () => json('GET', '/api/list_vps') },
  'POST /api/get_vps': { kind: 'admin', sample: (w) => json('POST', '/api/get_vps', { vpsId: w.nodeId, mode: 'get' }) },
  'POST /api/del_vps': { kind: 'admin', sample: null },
};

/** An OAuth state naming the victim's app and avatar, signed with a key the attacker made up. */
function forgedState(w: World): string {
  const body = Buffer.from(
    JSON.stringify({
      avatarId: w.victim.avatar.id,
      ownerId: w.victim.id,
      appId: w.victim.oauthAppId,
      back: '/',
      exp: Date.now() + 600_000,
      nonce: 'x',
    }),
  ).toString('base64url');
  return `${body}.${createHmac('sha256', 'a key of my own').update(body).digest('base64url')}`;
}

/** Inject options for a request made as `who` in the way the route's kind authenticates. */
export function asParty(
  kind: Kind,
  who: Party | TestAccount | null,
  req: Req,
): InjectOptions & { token?: string | null; appKey?: string | null } {
  const base = { method: req.method, url: req.url, ...(req.payload === undefined ? {} : { payload: req.payload as never }) };
  if (kind === 'kb') {
    const jwt = who && 'jwt' in who ? who.jwt : 'none';
    return { ...base, appKey: null, headers: { ...req.headers, authorization: `Bearer ${jwt}` } };
  }
  if (kind === 'customer' || kind === 'admin') return { ...base, token: who?.token ?? null, headers: { ...req.headers } };
  return { ...base, headers: { ...req.headers } };
}

/** Whether a route takes an id: a path parameter, or an id-like field anywhere in its body. */
export function idFieldsOf(url: string, bodyKeys: string[]): string[] {
  const params = [...url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  return [...params, ...bodyKeys.filter((k) => /(^id$|Id$|_id$|_ids$|Ids$)/.test(k))];
}
