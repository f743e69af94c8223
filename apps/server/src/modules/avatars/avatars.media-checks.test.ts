// Issue 18, item 8: what the editor checks before upload, the server checks again on save — a
// background image must be 16:9, a colour must be a CSS colour, a .glb must carry a glTF 2.0
// header whose length is the file's. A refused save leaves the avatar as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueAvatar } from '@parla/shared/schemas/catalogue';
import type { Avatar } from '@parla/shared/schemas/avatar';
import { createCustomer } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { fileOf, save, UPLOAD_REF } from '../../../test/avatar-requests';

let server: TestServer;
let full: CatalogueAvatar;

beforeAll(async () => {
  server = await createTestServer();
  full = ((await server.inject({ method: 'GET', url: '/api/catalogue/avatars' })).json().avatars as CatalogueAvatar[]).find(
    (a) => a.type === '3d',
  )!;
});
afterAll(() => server.close());

async function avatar() {
  const owner = await createCustomer(server);
  const res = await save(server, owner.token, { name: 'Checked', dhType: full.type, appearanceId: full.id });
  expect(res.statusCode, res.body).toBe(200);
  return { owner, a: res.json().agent as Avatar };
}

const stored = async (token: string, id: string) =>
  (await server.inject({ method: 'GET', url: `/api/avatar/${id}`, token })).json().agent as Avatar;

describe('media and colour checks on save', () => {
  it('refuses a background image that is not 16:9, naming its size, and keeps the avatar as it was', async () => {
    const { owner, a } = await avatar();
    const withBackground = (data: Buffer) =>
      save(
        server,
        owner.token,
        { ...a, avatarJson: { ...a.avatarJson, panel: { Enable: true, contentURL: UPLOAD_REF.backgroundImage } } },
        [{ field: 'backgroundImage', data }],
      );
    const square = await withBackground(fileOf('png', 4000, { width: 1024, height: 1024 }));
    expect(square.statusCode).toBe(400);
    expect(square.body).toContain('Background images must be 16:9');
    expect(square.body).toContain('1024 × 1024');
    expect((await stored(owner.token, a.id)).updated).toBe(a.updated);
    expect((await withBackground(fileOf('png', 4000, { width: 1280, height: 720 }))).statusCode).toBe(200);
  });

  it("refuses a colour that is not a CSS colour ('notacolor')", async () => {
    const { owner, a } = await avatar();
    const res = await save(server, owner.token, { ...a, avatarJson: { ...a.avatarJson, panel: { Enable: true, BgColor: 'notacolor' } } });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('must be a CSS colour');
    expect((await stored(owner.token, a.id)).avatarJson.panel?.BgColor).not.toBe('notacolor');
    const ok = await save(server, owner.token, {
      ...a,
      avatarJson: { ...a.avatarJson, panel: { Enable: true, BgColor: 'rgb(11, 16, 32)' } },
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('refuses a .glb whose header does not declare its real length (a fake or cut file)', async () => {
    const { owner, a } = await avatar();
    const fake = fileOf('glb', 3000);
    fake.writeUInt32LE(99_999, 8);
    const res = await save(
      server,
      owner.token,
      { ...a, avatarJson: { ...a.avatarJson, Environment: { 'gltf-model': UPLOAD_REF.scene } } },
      [{ field: 'scene', data: fake }],
    );
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('incomplete or damaged');
  });
});
