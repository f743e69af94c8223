import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, STALE_REQUEST_MESSAGE } from '@parla/shared/errors';
import { MB, UPLOAD_LIMITS } from '@parla/shared/limits';
import type { CatalogueAvatar, CatalogueEnvironmentsResponse } from '@parla/shared/schemas/catalogue';
import type { Avatar } from '@parla/shared/schemas/avatar';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { startConversation } from '../conversations/conversations.repository';
import { fileOf, save, UPLOAD_REF } from '../../../test/avatar-requests';

let server: TestServer;
let upper: CatalogueAvatar;
let full: CatalogueAvatar;

beforeAll(async () => {
  server = await createTestServer();
  const res = await server.inject({ method: 'GET', url: '/api/catalogue/avatars' });
  const avatars = res.json().avatars as CatalogueAvatar[];
  upper = avatars.find((a) => a.type === '2d')!;
  full = avatars.find((a) => a.type === '3d')!;
  expect(upper && full).toBeTruthy();
});
afterAll(() => server.close());

/** The owner's files whose bytes are stored (in the database's file_chunks, decision 015). */
const ownerFiles = async (ownerId: string) =>
  (
    await server.ctx.db
      .selectFrom('file_chunks')
      .innerJoin('stored_files', 'stored_files.id', 'file_chunks.file_id')
      .select('file_chunks.file_id')
      .distinct()
      .where('stored_files.owner_id', '=', ownerId)
      .execute()
  ).map((r) => r.file_id);
const tmpFiles = () => (existsSync(join(server.ctx.files.root, 'tmp')) ? readdirSync(join(server.ctx.files.root, 'tmp')) : []);
const fileRows = async (ownerId: string) =>
  (await server.ctx.db.selectFrom('stored_files').select('id').where('owner_id', '=', ownerId).execute()).length;

async function create(account: TestAccount, extra: Record<string, unknown> = {}): Promise<Avatar> {
  const res = await save(server, account.token, { name: 'Nova', dhType: upper.type, appearanceId: upper.id, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().agent as Avatar;
}

describe('creating, listing, updating and deleting avatars', () => {
  it('creates an avatar in echo mode with an access token and the default settings', async () => {
    const owner = await createCustomer(server);
    const res = await save(server, owner.token, { name: '  Nova  ', dhType: upper.type, appearanceId: upper.id, nlpEngine: 10 });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'OK', failReason: null });
    const a = body.agent as Avatar;
    expect(a).toMatchObject({
      name: 'Nova',
      dhType: '2d',
      dhTypeName: 'Upper Body 3D',
      nlpEngine: 0,
      nlpEngineName: 'Echo',
      encKeyId: 'Default',
      billingAuthPingTime: 30,
      usersCount: 0,
      sendChatHistory: false,
      handleSttResponse: false,
      permissions: 0,
      setupMode: 'Simple',
      realtime: false,
      agentLanguage: 'en',
      mediaDetails: { backgroundImage: [], scene: [] },
    });
    expect(a.token).toMatch(/^[\w-]{40,}$/);
    expect(a.customData).toMatchObject({
      transcriptionStreaming: false,
      enable_transcript_download: false,
      words_per_sec: 3,
      summaryEnabled: true,
      collection_ids: [],
    });
    expect(a.customData.agent_pipeline_config?.stt).toMatchObject({ default_stt: 0, languages: 'en-US' });
    expect(a.customData.agent_pipeline_config?.tts).toMatchObject({ default_tts: 1 });
    expect(a.clientJson).toMatchObject({ letsChatButtonText: "LET'S CHAT" });
    expect(a.avatarConfigURL).toBe(`http://parla.test/config-files/avatars/${a.id}/avatar.json`);
    expect(a.clientConfigURL).toBe(`http://parla.test/config-files/avatars/${a.id}/client.json`);
    // Decided on the server (PUBLIC_URL and its config-files paths), whatever host the portal is opened on.
    expect(a.selfHosted).toEqual({ avatarConfig: false, clientConfig: false });
    expect(a.configFilesOrigin).toBe('http://parla.test');

    const list = await server.inject({ method: 'GET', url: '/api/avatar/list', token: owner.token });
    expect(list.statusCode).toBe(200);
    expect(list.json().agents.map((x: Avatar) => x.id)).toEqual([a.id]);
  });

  it('updates an avatar and moves its updated time forward', async () => {
    const owner = await createCustomer(server);
    const a = await create(owner);
    server.advance(1000);
    const res = await save(server, owner.token, {
      ...a,
      name: 'Renamed',
      avatarJson: { ...a.avatarJson, panel: { Enable: true, BgColor: '#123456' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const b = res.json().agent as Avatar;
    expect(b.name).toBe('Renamed');
    expect(b.avatarJson.panel).toEqual({ Enable: true, BgColor: '#123456' });
    expect(b.token).toBe(a.token);
    expect(Date.parse(b.updated)).toBeGreaterThan(Date.parse(a.updated));
  });

  it('refuses an update that carries an older updated time (StaleRequest) and keeps the newer data', async () => {
    const owner = await createCustomer(server);
    const a = await create(owner);
    const first = await save(server, owner.token, { ...a, name: 'From tab one' });
    expect(first.statusCode).toBe(200);
    const stale = await save(server, owner.token, { ...a, name: 'From tab two' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      status: 'ERROR',
      code: ErrorCode.StaleRequest,
      errors: [STALE_REQUEST_MESSAGE],
      failReason: 'STALE_REQUEST',
    });
    const list = await server.inject({ method: 'GET', url: '/api/avatar/list', token: owner.token });
    expect(list.json().agents[0].name).toBe('From tab one');
    const missing = await save(server, owner.token, { id: a.id, name: 'x', dhType: a.dhType, appearanceId: a.appearanceId });
    expect(missing.statusCode).toBe(400);
  });

  it('deletes an avatar with its media files', async () => {
    const owner = await createCustomer(server);
    const a = await create(owner);
    const up = await save(server, owner.token, { ...a, avatarJson: { panel: { Enable: true, contentURL: UPLOAD_REF.backgroundImage } } }, [
      { field: 'backgroundImage', data: fileOf('png', 2048) },
      { field: 'avatarPhoto', data: fileOf('png', 512) },
    ]);
    expect(up.statusCode, up.body).toBe(200);
    expect(await ownerFiles(owner.id)).toHaveLength(2);
    const del = await server.inject({
      method: 'POST',
      url: '/api/avatar/del',
      token: owner.token,
      payload: { agentId: a.id, mode: 'delete' },
    });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ status: 'OK', agentId: a.id });
    expect(await ownerFiles(owner.id)).toEqual([]);
    expect(await fileRows(owner.id)).toBe(0);
    const again = await server.inject({
      method: 'POST',
      url: '/api/avatar/del',
      token: owner.token,
      payload: { agentId: a.id, mode: 'delete' },
    });
    expect(again.statusCode).toBe(404);
  });

  it('checks the appearance against the catalogue and the type against the appearance', async () => {
    const owner = await createCustomer(server);
    const unknown = await save(server, owner.token, { name: 'X', dhType: '2d', appearanceId: 'no-such-appearance' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().failReason).toBe('INVALID_APPEARANCE');
    const mismatch = await save(server, owner.token, { name: 'X', dhType: '3d', appearanceId: upper.id });
    expect(mismatch.statusCode).toBe(400);
    const invalid = await save(server, owner.token, { name: ' ', dhType: 'hologram', appearanceId: '' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors).toEqual(
      expect.arrayContaining([
        'Avatar Name is required.',
        'Avatar Type is required',
        'Avatar selection is required. Please select an avatar from the list above.',
      ]),
    );
    const badUrl = await save(server, owner.token, { name: 'X', dhType: '2d', appearanceId: upper.id, avatarConfigURL: 'not a url' });
    expect(badUrl.json().errors).toEqual(['Avatar Config URL must be a valid URL']);
  });
});

describe('another account', () => {
  it('cannot update, delete, list users of or read the config files of an avatar it does not own', async () => {
    const owner = await createCustomer(server);
    const other = await createCustomer(server, 'other');
    const a = await create(owner);
    const update = await save(server, other.token, { ...a, name: 'Hijacked' });
    expect(update.statusCode).toBe(404);
    const del = await server.inject({
      method: 'POST',
      url: '/api/avatar/del',
      token: other.token,
      payload: { agentId: a.id, mode: 'delete' },
    });
    expect(del.statusCode).toBe(404);
    const users = await server.inject({
      method: 'POST',
      url: '/api/list_avatar_users',
      token: other.token,
      payload: { agentId: a.id, mode: 'get' },
    });
    expect(users.statusCode).toBe(404);
    for (const file of ['avatar.json', 'client.json']) {
      const res = await server.inject({ method: 'GET', url: `/config-files/avatars/${a.id}/${file}`, token: other.token });
      expect(res.statusCode).toBe(404);
      const mine = await server.inject({ method: 'GET', url: `/config-files/avatars/${a.id}/${file}`, token: owner.token });
      expect(mine.statusCode).toBe(200);
    }
    const list = await server.inject({ method: 'GET', url: '/api/avatar/list', token: other.token });
    expect(list.json().agents).toEqual([]);
    const after = await server.inject({ method: 'GET', url: '/api/avatar/list', token: owner.token });
    expect(after.json().agents[0].name).toBe('Nova');
  });
});

describe('the plan limit', () => {
  it('stops a FREE account at 2 avatars with AvatarCreateLimitReached, and lets a PRO account go on', async () => {
    const owner = await createCustomer(server);
    await create(owner);
    await create(owner);
    const third = await save(server, owner.token, { name: 'Third', dhType: upper.type, appearanceId: upper.id });
    expect(third.statusCode).toBe(403);
    expect(third.json()).toMatchObject({ code: ErrorCode.AvatarCreateLimitReached, failReason: 'AVATAR_LIMIT_REACHED' });
    await server.ctx.db.updateTable('users').set({ subscription_type: 2 }).where('id', '=', owner.id).execute();
    await create(owner);
  });
});

describe('uploads', () => {
  const cases = [
    { kind: 'image', field: 'backgroundImage', file: 'png', limit: UPLOAD_LIMITS.image, message: 'File size exceeds 10MB for image.' },
    { kind: 'video', field: 'backgroundImage', file: 'mp4', limit: UPLOAD_LIMITS.video, message: 'File size exceeds 25MB for video.' },
    { kind: 'glb', field: 'scene', file: 'glb', limit: UPLOAD_LIMITS.glb, message: 'File size exceeds 25MB for glb.' },
    { kind: 'photo', field: 'avatarPhoto', file: 'png', limit: UPLOAD_LIMITS.image, message: 'File size exceeds 10MB for image.' },
  ] as const;

  for (const c of cases) {
    it(`accepts a ${c.kind} of exactly ${c.limit / MB}MB and refuses one byte more, storing nothing`, async () => {
      const owner = await createCustomer(server);
      const a = await create(owner, c.field === 'scene' ? { dhType: full.type, appearanceId: full.id } : {});
      const over = await save(server, owner.token, a, [{ field: c.field, data: fileOf(c.file, c.limit + 1) }]);
      expect(over.statusCode).toBe(413);
      expect(over.json()).toMatchObject({ status: 'ERROR', errors: [c.message], failReason: 'FILE_TOO_LARGE' });
      expect(await ownerFiles(owner.id)).toEqual([]);
      expect(tmpFiles()).toEqual([]);
      expect(await fileRows(owner.id)).toBe(0);

      const exact = await save(server, owner.token, a, [{ field: c.field, data: fileOf(c.file, c.limit) }]);
      expect(exact.statusCode, exact.body).toBe(200);
      expect(await ownerFiles(owner.id)).toHaveLength(1);
      expect(await fileRows(owner.id)).toBe(1);
      // Bounded, not timed: 25 MB go into the embedded database in the save's transaction.
    }, 120_000);
  }

  it('checks the type from the first bytes, not the name', async () => {
    const owner = await createCustomer(server);
    const a = await create(owner);
    const fake = await save(server, owner.token, a, [{ field: 'backgroundImage', data: fileOf('text', 100), filename: 'photo.png' }]);
    expect(fake.statusCode).toBe(400);
    expect(fake.json().failReason).toBe('INVALID_FILE_TYPE');
    const wrongField = await save(server, owner.token, a, [{ field: 'avatarPhoto', data: fileOf('mp4', 100) }]);
    expect(wrongField.statusCode).toBe(400);
    expect(await ownerFiles(owner.id)).toEqual([]);
  });

  it('puts an uploaded background in place of its placeholder and serves it, with ranges', async () => {
    const owner = await createCustomer(server);
    const a = await create(owner);
    const data = fileOf('png', 4000);
    const res = await save(
      server,
      owner.token,
      { ...a, avatarJson: { ...a.avatarJson, panel: { Enable: true, contentURL: UPLOAD_REF.backgroundImage } } },
      [{ field: 'backgroundImage', data }],
    );
    expect(res.statusCode, res.body).toBe(200);
    const b = res.json().agent as Avatar;
    expect(b.mediaDetails.backgroundImage).toHaveLength(1);
    const url = b.mediaDetails.backgroundImage[0]!.url;
    expect(b.avatarJson.panel?.contentURL).toBe(url);
    const got = await server.inject({ method: 'GET', url, appKey: null });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.rawPayload.equals(data)).toBe(true);
    const part = await server.inject({ method: 'GET', url, appKey: null, headers: { range: 'bytes=10-19' } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(data.subarray(10, 20))).toBe(true);
    const missing = await save(server, owner.token, { ...b, avatarJson: { panel: { contentURL: UPLOAD_REF.backgroundImage } } });
    expect(missing.statusCode).toBe(400);

    // Leaving a media item out of mediaDetails deletes it and its file.
    const removed = await save(server, owner.token, { ...b, mediaDetails: { backgroundImage: [], scene: [] } });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await ownerFiles(owner.id)).toEqual([]);
    expect((await server.inject({ method: 'GET', url, appKey: null })).statusCode).toBe(404);
  });
});

describe('secrets and protected fields', () => {
  it('stores keys encrypted, answers them masked, keeps them when the mask is sent back, and never logs them', async () => {
    const owner = await createCustomer(server);
    const a = await create(owner);
    const key = 'sk-rest-0123456789-abcdefghij';
    const pipelineKey = 'sk-llm-9876543210-zyxwvuts';
    const res = await save(server, owner.token, {
      ...a,
      restApiKey: key,
      customData: {
        ...a.customData,
        agent_pipeline_config: { ...a.customData.agent_pipeline_config, llm: { provider: 'openai', api_key: pipelineKey } },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const b = res.json().agent as Avatar;
    expect(b.restApiKey).toBe('••••ghij');
    expect(b.customData.agent_pipeline_config?.llm?.api_key).toBe(`••••${pipelineKey.slice(-4)}`);
    const row = await server.ctx.db
      .selectFrom('avatars')
      .select(['rest_api_key_enc', 'custom_data'])
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    expect(row.rest_api_key_enc).not.toContain(key);
    expect(JSON.stringify(row.custom_data)).not.toContain(pipelineKey);
    expect(server.ctx.secrets.decrypt(row.rest_api_key_enc!)).toBe(key);

    const again = await save(server, owner.token, { ...b, name: 'Same keys' });
    expect(again.statusCode).toBe(200);
    const row2 = await server.ctx.db
      .selectFrom('avatars')
      .select(['rest_api_key_enc', 'custom_data'])
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    expect(server.ctx.secrets.decrypt(row2.rest_api_key_enc!)).toBe(key);
    const llm = (row2.custom_data as { agent_pipeline_config: { llm: { api_key: string } } }).agent_pipeline_config.llm;
    expect(server.ctx.secrets.decrypt(llm.api_key)).toBe(pipelineKey);
    expect(server.logs.join('\n')).not.toContain(key);
  });

  it('ignores the admin-proxy fields from an ordinary session', async () => {
    const owner = await createCustomer(server);
    const a = await create(owner);
    const res = await save(server, owner.token, {
      ...a,
      realtime: true,
      sendChatHistory: true,
      idleTimeout: 42,
      customData: { ...a.customData, words_per_sec: 7, enable_transcript_download: true },
    });
    const b = res.json().agent as Avatar;
    expect(b).toMatchObject({ realtime: false, sendChatHistory: false, permissions: 0, idleTimeout: a.idleTimeout });
    expect(b.customData).toMatchObject({ words_per_sec: 3, enable_transcript_download: false });
  });
});

describe('online users and the public view', () => {
  it('lists the open conversations of one avatar and counts them on its card', async () => {
    const owner = await createCustomer(server);
    const a = await create(owner);
    const b = await create(owner);
    const now = server.ctx.now();
    const talk = (avatarId: string, id: string) =>
      startConversation(server.ctx.db, {
        id,
        owner_id: owner.id,
        avatar_id: avatarId,
        avatar_name: 'Nova',
        avatar_type: '2d',
        user_id: 'u',
        user_name: 'Visitor',
        started_at: now,
        last_seen_at: now,
        locale: 'en-GB',
        device_os: 'Linux',
      });
    await talk(a.id, `s-${a.id}-1`);
    await talk(a.id, `s-${a.id}-2`);
    await talk(b.id, `s-${b.id}-1`);
    const res = await server.inject({
      method: 'POST',
      url: '/api/list_avatar_users',
      token: owner.token,
      payload: { agentId: a.id, mode: 'get' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'OK', agentId: a.id, errors: [] });
    expect(res.json().onlineUsers).toHaveLength(2);
    expect(res.json().onlineUsers[0]).toMatchObject({ userName: 'Visitor', deviceOS: 'Linux', locale: 'en-GB', onlineStatus: 'ONLINE' });
    const list = await server.inject({ method: 'GET', url: '/api/avatar/list', token: owner.token });
    const counts = Object.fromEntries(list.json().agents.map((x: Avatar) => [x.id, x.usersCount]));
    expect(counts).toEqual({ [a.id]: 2, [b.id]: 1 });
  });

  it('answers the player with the token and without any secret', async () => {
    const owner = await createCustomer(server);
    const a = await create(owner, { restApiKey: 'sk-very-secret-value-123456' });
    const none = await server.inject({ method: 'GET', url: `/api/public/avatar/${a.id}`, appKey: null });
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe(ErrorCode.InvalidToken);
    const wrong = await server.inject({ method: 'GET', url: `/api/public/avatar/${a.id}?token=nope`, appKey: null });
    expect(wrong.statusCode).toBe(401);
    const res = await server.inject({ method: 'GET', url: `/api/public/avatar/${a.id}?token=${a.token}`, appKey: null });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: a.id,
      name: 'Nova',
      dhType: '2d',
      engine: 'Echo',
      appearance: { id: upper.id },
      language: 'en-US',
      voice: { provider: 'browser' },
    });
    expect(res.body).not.toContain('very-secret');
    expect(res.body).not.toContain(a.token);
    expect(res.body).not.toContain(owner.id);
    const unknown = await server.inject({
      method: 'GET',
      url: `/api/public/avatar/00000000-0000-0000-0000-000000000000?token=x`,
      appKey: null,
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('resolves the catalogue background, lighting and 3D environment the avatar JSON names', async () => {
    const owner = await createCustomer(server);
    const env = (await server.inject({ method: 'GET', url: '/api/catalogue/environments' })).json() as CatalogueEnvironmentsResponse;
    const bg = env.backgrounds.find((b) => b.kind === 'image')!;
    const light = env.lights[0]!;
    const room = env.environments[0]!;
    const a = await create(owner, { avatarJson: { panel: { Enable: true, contentURL: bg.url }, Lights: [{ preset: light.id }] } });
    const view = (await server.inject({ method: 'GET', url: `/api/public/avatar/${a.id}?token=${a.token}`, appKey: null })).json();
    expect(view.scene).toEqual({ background: { kind: 'image', url: bg.url }, lighting: light.preset, environment: null });
    const b = await create(owner, {
      dhType: full.type,
      appearanceId: full.id,
      avatarJson: { Environment: { 'gltf-model': room.modelURL } },
    });
    const view3d = (await server.inject({ method: 'GET', url: `/api/public/avatar/${b.id}?token=${b.token}`, appKey: null })).json();
    expect(view3d.scene.environment).toEqual({ modelURL: room.modelURL, staging: room.staging });
    expect(view3d.scene.lighting).toBeNull();
  });

  it('gives a 3D avatar the viseme atlas of its appearance, served, for browsers without WebGL (decision 124)', async () => {
    const owner = await createCustomer(server);
    expect(upper.atlasURL).toMatch(/-atlas\.[0-9a-f]{10}\.json$/);
    const a = await create(owner);
    const view = (await server.inject({ method: 'GET', url: `/api/public/avatar/${a.id}?token=${a.token}`, appKey: null })).json();
    expect(view.appearance.atlasURL).toBe(upper.atlasURL);
    const manifest = await server.inject({ method: 'GET', url: upper.atlasURL!, appKey: null });
    expect(manifest.statusCode).toBe(200);
    const atlas = await server.inject({
      method: 'GET',
      url: upper.atlasURL!.replace(/[^/]+$/, manifest.json().atlas as string),
      appKey: null,
    });
    expect(atlas.statusCode).toBe(200);
    expect(atlas.headers['content-type']).toContain('image/webp');
  });

  it('gives a 3D avatar the light model of its appearance, served, for software WebGL (decision 128)', async () => {
    const owner = await createCustomer(server);
    expect(upper.lightModelURL).toMatch(/-light\.[0-9a-f]{10}\.glb$/);
    const a = await create(owner);
    const view = (await server.inject({ method: 'GET', url: `/api/public/avatar/${a.id}?token=${a.token}`, appKey: null })).json();
    expect(view.appearance.lightModelURL).toBe(upper.lightModelURL);
    expect(view.appearance.modelURL).toBe(upper.modelURL);
    const glb = await server.inject({ method: 'GET', url: upper.lightModelURL!, appKey: null });
    expect(glb.statusCode).toBe(200);
    expect(glb.rawPayload.subarray(0, 4).toString()).toBe('glTF');
  });
});
