// Bring your own 3D avatar (issue 36 item 1, decision 123): a PRO or ENTERPRISE customer saves a
// .glb / .vrm as the avatar's appearance; the model check (in its child process) finds its mouth
// shapes in one of three conventions, its head bone and blink, and the player's public view
// carries them. A model that cannot talk is refused with what is missing; other plans are asked
// to upgrade. Test models come from the catalogue generator (test/own-models.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWN_MODEL_APPEARANCE, type Avatar } from '@parla/shared/schemas/avatar';
import type { PublicAvatar } from '@parla/shared/schemas/player';
import type { CatalogueAvatar } from '@parla/shared/schemas/catalogue';
import { SubscriptionType } from '@parla/shared/plans';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { save } from '../../../test/avatar-requests';
import { testModels } from '../../../test/own-models';

let server: TestServer;
let pro: TestAccount;

beforeAll(async () => {
  server = await createTestServer();
  pro = await createCustomer(server, 'byo');
  await server.ctx.db.updateTable('users').set({ subscription_type: SubscriptionType.PRO }).where('id', '=', pro.id).execute();
});
afterAll(() => server.close());

const upload = (token: string, data: Buffer, json: Record<string, unknown> = {}, filename = 'me.glb') =>
  save(server, token, { name: 'Mine', dhType: '2d', appearanceId: OWN_MODEL_APPEARANCE, ...json }, [
    { field: 'avatarModel', data, filename },
  ]);

const publicView = async (a: Avatar) =>
  (await server.inject({ method: 'GET', url: `/api/public/avatar/${a.id}?token=${a.token}` })).json() as PublicAvatar;

describe('bring your own 3D avatar', () => {
  it.each([
    ['oculus', 'Oculus visemes', 'Head', 'glb'],
    ['arkit', 'ARKit blend shapes', 'mixamorig:Head', 'glb'],
    ['vrm0', 'VRM expressions', 'J_Bip_C_Head', 'vrm0'],
    ['vrm1', 'VRM expressions', 'J_Bip_C_Head', 'vrm1'],
  ] as const)(
    'takes the %s model as the appearance, with its mouth shapes, head bone and blink',
    async (name, convention, head, format) => {
      const res = await upload(pro.token, testModels().talking[name], {}, `${name}.${name.startsWith('vrm') ? 'vrm' : 'glb'}`);
      expect(res.statusCode, res.body).toBe(200);
      const a = res.json().agent as Avatar;
      expect(a.appearanceId).toBe(OWN_MODEL_APPEARANCE);
      expect(a.ownModel).toMatchObject({ format, headBone: head, url: expect.stringMatching(/^\/config-files\/avatars\/.+\.glb$/) });
      expect(a.ownModel!.description).toContain(`Mouth: ${convention}`);
      expect(a.ownModel!.description).toContain('blinks');

      const view = await publicView(a);
      expect(view.appearance.modelURL).toBe(a.ownModel!.url);
      const rig = view.appearance.rig!;
      expect(rig.bones.Head).toBe(4);
      expect(rig.visemes.aa!.length).toBeGreaterThan(0);
      expect(rig.blink.length).toBeGreaterThan(0);
      // The player loads the file from where the view says.
      const file = await server.inject({ method: 'GET', url: a.ownModel!.url });
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(testModels().talking[name])).toBe(true);
    },
  );

  it('refuses the model with no mouth shapes, saying what it expected, and stores nothing', async () => {
    const res = await upload(pro.token, testModels().talking.mute);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.join(' ')).toContain('no mouth shapes found: expected Oculus visemes, ARKit blend shapes or VRM expressions');
    const files = await server.ctx.db
      .selectFrom('stored_files')
      .select('id')
      .where('owner_id', '=', pro.id)
      .where('kind', '=', 'avatar-model')
      .execute();
    const kept = await server.ctx.db.selectFrom('avatars').select('own_model').where('owner_id', '=', pro.id).execute();
    expect(files.length).toBe(kept.length);
  });

  it('asks FREE and STARTER accounts to upgrade (the custom image avatar rule) without reading the file', async () => {
    const free = await createCustomer(server, 'byo-free');
    await server.ctx.db.updateTable('users').set({ subscription_type: SubscriptionType.STARTER }).where('id', '=', free.id).execute();
    const res = await upload(free.token, testModels().talking.oculus);
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('Higher Subscription Plan Required');
  });

  it('replaces the model on a new upload and drops it (file and all) when a catalogue appearance is chosen', async () => {
    const first = (await upload(pro.token, testModels().talking.oculus)).json().agent as Avatar;
    const second = await upload(pro.token, testModels().talking.arkit, { id: first.id, updated: first.updated });
    expect(second.statusCode, second.body).toBe(200);
    const a = second.json().agent as Avatar;
    expect(a.ownModel!.convention).toBe('arkit');
    expect((await server.inject({ method: 'GET', url: first.ownModel!.url })).statusCode).toBe(404);

    const catalogue = (await server.inject({ method: 'GET', url: '/api/catalogue/avatars' })).json().avatars as CatalogueAvatar[];
    const ub = catalogue.find((c) => c.type === '2d')!;
    const back = await save(server, pro.token, { ...a, appearanceId: ub.id });
    expect(back.statusCode, back.body).toBe(200);
    expect((back.json().agent as Avatar).ownModel).toBeNull();
    expect((await server.inject({ method: 'GET', url: a.ownModel!.url })).statusCode).toBe(404);
  });

  it('keeps the stored model across saves that send no file, and refuses the own appearance with no model at all', async () => {
    const a = (await upload(pro.token, testModels().talking.vrm1)).json().agent as Avatar;
    const again = await save(server, pro.token, { ...a, name: 'Renamed' });
    expect(again.statusCode, again.body).toBe(200);
    expect((again.json().agent as Avatar).ownModel!.url).toBe(a.ownModel!.url);
    const none = await save(server, pro.token, { name: 'Nothing', dhType: '2d', appearanceId: OWN_MODEL_APPEARANCE });
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('Upload your 3D avatar');
  });

  it('refuses a model on an image avatar: it is an upper body or full body 3D avatar', async () => {
    const res = await upload(pro.token, testModels().talking.oculus, { dhType: 'image' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('upper body 3D or full body 3D');
  });
});
