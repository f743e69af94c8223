// An uploaded model's viseme atlas (issue 36 items 5 and 6, decision 127): the customer's
// browser sends the manifest, the atlas and the card's still; the server checks and stores them
// with the avatar, the player's public view points at the atlas, the card at the still.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWN_MODEL_APPEARANCE, type Avatar, type AvatarListResponse } from '@parla/shared/schemas/avatar';
import type { ImageAvatarModel, ImageAvatarSprite } from '@parla/shared/schemas/catalogue';
import type { PublicAvatar } from '@parla/shared/schemas/player';
import { OWN_ATLAS_LIMITS, type OwnModelAtlasManifest } from '@parla/shared/schemas/own-model-atlas';
import { SubscriptionType } from '@parla/shared/plans';
import { VISEMES } from '@parla/shared/visemes';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { fileOf, multipart, type Part } from '../../../test/avatar-requests';
import { save } from '../../../test/avatar-requests';
import { testModels } from '../../../test/own-models';

let server: TestServer;
let pro: TestAccount;

beforeAll(async () => {
  server = await createTestServer();
  pro = await createCustomer(server, 'atlas');
  await server.ctx.db.updateTable('users').set({ subscription_type: SubscriptionType.PRO }).where('id', '=', pro.id).execute();
});
afterAll(() => server.close());

const W = 480;
const H = 600;
const s = (sx: number, sy: number, w: number, h: number, x: number, y: number): ImageAvatarSprite => ({ sx, sy, w, h, x, y });

/** A manifest as renderVisemeAtlas makes it: the picture on top, frames in a row below. */
function manifest(): OwnModelAtlasManifest {
  const mouth = s(0, H + 1, 60, 40, 210, 380);
  return {
    format: 'parla-image-avatar',
    version: 1,
    rigid: true,
    width: W,
    height: H,
    background: '',
    layers: { back: null, body: s(0, 0, W, H, 0, 0), head: s(0, H, 1, 1, 200, 250) },
    headPivot: [W / 2, 330],
    mouth: Object.fromEntries(VISEMES.map((v) => [v, mouth])) as ImageAvatarModel['mouth'],
    smile: mouth,
    eyes: { open: s(60, H + 1, 120, 30, 180, 280), half: s(180, H + 1, 120, 30, 180, 280), closed: s(300, H + 1, 120, 30, 180, 280) },
    brows: { neutral: s(0, H, 1, 1, 200, 250), raised: s(0, H, 1, 1, 200, 250) },
  };
}

const atlasPng = (size = 40_000, width = W, height = H + 60) => fileOf('png', size, { width, height });
const stillPng = () => fileOf('png', 8_000, { width: 240, height: 300 });

function send(token: string, avatarId: string, parts: Part[]) {
  const { payload, headers } = multipart(parts);
  return server.inject({ method: 'POST', url: `/api/avatar/${avatarId}/own_model_atlas`, token, payload, headers });
}

const parts = (m: unknown = manifest(), atlas = atlasPng(), still = stillPng()): Part[] => [
  { name: 'manifest', value: typeof m === 'string' ? m : JSON.stringify(m) },
  { name: 'atlas', value: atlas, filename: 'atlas.webp' },
  { name: 'still', value: still, filename: 'still.webp' },
];

async function ownAvatar(owner = pro): Promise<Avatar> {
  const res = await save(server, owner.token, { name: 'Mine', dhType: '2d', appearanceId: OWN_MODEL_APPEARANCE }, [
    { field: 'avatarModel', data: testModels().talking.oculus, filename: 'me.glb' },
  ]);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().agent as Avatar;
}

const atlasFiles = (ownerId: string) =>
  server.ctx.db.selectFrom('stored_files').select('id').where('owner_id', '=', ownerId).where('kind', '=', 'avatar-atlas').execute();

describe("an uploaded model's viseme atlas", () => {
  it('stores the atlas and reads it back: the public view draws it, the card shows the still', async () => {
    const a = await ownAvatar();
    const res = await send(pro.token, a.id, parts());
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { manifestURL: string; stillURL: string; atlasBytes: number };
    expect(body.atlasBytes).toBe(40_000);

    const view = (await server.inject({ method: 'GET', url: `/api/public/avatar/${a.id}?token=${a.token}` })).json() as PublicAvatar;
    expect(view.appearance.atlasURL).toBe(body.manifestURL);
    const stored = await server.inject({ method: 'GET', url: body.manifestURL });
    expect(stored.statusCode).toBe(200);
    const m = stored.json() as ImageAvatarModel;
    expect(m).toMatchObject({ ...manifest(), atlas: expect.stringMatching(/^[0-9a-f-]{36}\.png$/) });
    const image = await server.inject({ method: 'GET', url: new URL(m.atlas, `http://x${body.manifestURL}`).pathname });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(atlasPng())).toBe(true);

    const list = (await server.inject({ method: 'GET', url: '/api/avatar/list', token: pro.token })).json() as AvatarListResponse;
    expect(list.agents.find((c) => c.id === a.id)!.stillURL).toBe(body.stillURL);
    expect((await server.inject({ method: 'GET', url: body.stillURL })).rawPayload.equals(stillPng())).toBe(true);
    // Not a save: the editor's loaded version stays current.
    const after = (await server.inject({ method: 'GET', url: `/api/avatar/${a.id}`, token: pro.token })).json().agent as Avatar;
    expect(after.updated).toBe(a.updated);
    expect(after.stillURL).toBe(body.stillURL);
  });

  it('replaces the atlas (old files deleted) and drops it with the model when a new model is saved', async () => {
    const a = await ownAvatar();
    const first = (await send(pro.token, a.id, parts())).json() as { manifestURL: string };
    const second = await send(pro.token, a.id, parts());
    expect(second.statusCode, second.body).toBe(200);
    expect((await server.inject({ method: 'GET', url: first.manifestURL })).statusCode).toBe(404);
    const replaced = await save(server, pro.token, { ...a }, [
      { field: 'avatarModel', data: testModels().talking.arkit, filename: 'b.glb' },
    ]);
    expect(replaced.statusCode, replaced.body).toBe(200);
    const view = (await server.inject({ method: 'GET', url: `/api/public/avatar/${a.id}?token=${a.token}` })).json() as PublicAvatar;
    expect(view.appearance.atlasURL).toBeUndefined();
    expect((await server.inject({ method: 'GET', url: (second.json() as { manifestURL: string }).manifestURL })).statusCode).toBe(404);
  });

  it('refuses a body over the cap with 413 while it streams, storing nothing', async () => {
    const a = await ownAvatar();
    const before = (await atlasFiles(pro.id)).length;
    const res = await send(pro.token, a.id, parts(manifest(), atlasPng(OWN_ATLAS_LIMITS.atlasBytes + 1)));
    expect(res.statusCode).toBe(413);
    expect(res.json().errors.join(' ')).toContain('The atlas exceeds 1024 KB.');
    expect((await atlasFiles(pro.id)).length).toBe(before);
  });

  it.each([
    ['a text file as the atlas', parts(manifest(), fileOf('text', 2_000)), 'The atlas must be a WebP or PNG image.'],
    ['an atlas of huge dimensions', parts(manifest(), atlasPng(40_000, W, 60_000)), 'The atlas is 480 × 60000 pixels: too large.'],
    ['a manifest that is not JSON', parts('{nope'), 'The atlas manifest is not valid JSON in the image avatar format.'],
    ['a manifest of another format', parts({ format: 'other' }), 'The atlas manifest is not valid JSON in the image avatar format.'],
    [
      'a manifest whose width lies',
      parts({ ...manifest(), width: 960 }),
      'The atlas does not match its manifest: the picture is 960 pixels wide, the atlas 480.',
    ],
    [
      'a manifest whose mouth lies outside the atlas',
      parts({ ...manifest(), mouth: { ...manifest().mouth, aa: s(0, 5000, 60, 40, 210, 380) } }),
      'The atlas does not match its manifest: mouth.aa lies outside the atlas image.',
    ],
    ['no still', parts().slice(0, 2), 'Send multipart/form-data with the field manifest (JSON), then the files atlas and still.'],
  ])('refuses %s with 400 and a message', async (_what, body, message) => {
    const a = await ownAvatar();
    const res = await send(pro.token, a.id, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors).toEqual([message]);
  });

  it("answers another account's avatar as not found", async () => {
    const a = await ownAvatar();
    const other = await createCustomer(server, 'atlas-other');
    await server.ctx.db.updateTable('users').set({ subscription_type: SubscriptionType.PRO }).where('id', '=', other.id).execute();
    const res = await send(other.token, a.id, parts());
    expect(res.statusCode).toBe(404);
    expect((await atlasFiles(other.id)).length).toBe(0);
  });

  it('refuses an avatar that wears no uploaded model', async () => {
    const catalogue = (await server.inject({ method: 'GET', url: '/api/catalogue/avatars' })).json().avatars as {
      id: string;
      type: string;
    }[];
    const ub = catalogue.find((c) => c.type === '2d')!;
    const plain = await createCustomer(server, 'atlas-plain');
    const a = (await save(server, plain.token, { name: 'Plain', dhType: '2d', appearanceId: ub.id })).json().agent as Avatar;
    const res = await send(plain.token, a.id, parts());
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual(['This avatar wears no uploaded 3D avatar: a viseme atlas is made from an uploaded model.']);
  });
});
