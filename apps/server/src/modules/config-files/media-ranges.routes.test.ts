import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Avatar } from '@parla/shared/schemas/avatar';
import type { CatalogueAvatar } from '@parla/shared/schemas/catalogue';
import { createCustomer } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { fileOf, save, type Upload } from '../../../test/avatar-requests';

let server: TestServer;
let upper: CatalogueAvatar;
let full: CatalogueAvatar;

beforeAll(async () => {
  server = await createTestServer();
  const avatars = (await server.inject({ method: 'GET', url: '/api/catalogue/avatars' })).json().avatars as CatalogueAvatar[];
  upper = avatars.find((a) => a.type === '2d')!;
  full = avatars.find((a) => a.type === '3d')!;
});
afterAll(() => server.close());

/** Uploads one file to a new avatar and answers the file's public URL and bytes. */
async function uploaded(upload: Upload, appearance: CatalogueAvatar): Promise<{ url: string; data: Buffer }> {
  const owner = await createCustomer(server);
  const res = await save(server, owner.token, { name: 'Nova', dhType: appearance.type, appearanceId: appearance.id }, [upload]);
  expect(res.statusCode, res.body).toBe(200);
  const media = (res.json().agent as Avatar).mediaDetails;
  const item = upload.field === 'scene' ? media.scene[0] : media.backgroundImage[0];
  return { url: item!.url, data: upload.data };
}

const get = (url: string, range?: string, method: 'GET' | 'HEAD' = 'GET') =>
  server.inject({ method, url, appKey: null, ...(range ? { headers: { range } } : {}) });

describe('avatar media answer byte ranges', () => {
  const kinds = [
    {
      name: 'a video background',
      upload: () => ({ field: 'backgroundImage', data: fileOf('mp4', 5000) }) as Upload,
      type: 'video/mp4',
      appearance: () => upper,
    },
    {
      name: 'a GLB environment',
      upload: () => ({ field: 'scene', data: fileOf('glb', 6000) }) as Upload,
      type: 'model/gltf-binary',
      appearance: () => full,
    },
  ];
  for (const k of kinds) {
    it(`serves ${k.name} whole, in one range, from an offset, as a suffix, and refuses a range past its end with 416`, async () => {
      const { url, data } = await uploaded(k.upload(), k.appearance());
      const size = data.length;
      const whole = await get(url);
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['accept-ranges']).toBe('bytes');
      expect(whole.headers['content-type']).toBe(k.type);
      expect(Number(whole.headers['content-length'])).toBe(size);
      expect(whole.rawPayload.equals(data)).toBe(true);

      const part = await get(url, 'bytes=100-199');
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 100-199/${size}`);
      expect(part.headers['accept-ranges']).toBe('bytes');
      expect(part.headers['content-type']).toBe(k.type);
      expect(Number(part.headers['content-length'])).toBe(100);
      expect(part.rawPayload.equals(data.subarray(100, 200))).toBe(true);

      const open = await get(url, `bytes=${size - 10}-`);
      expect(open.statusCode).toBe(206);
      expect(open.headers['content-range']).toBe(`bytes ${size - 10}-${size - 1}/${size}`);
      expect(open.rawPayload.equals(data.subarray(size - 10))).toBe(true);

      const suffix = await get(url, 'bytes=-16');
      expect(suffix.statusCode).toBe(206);
      expect(suffix.headers['content-range']).toBe(`bytes ${size - 16}-${size - 1}/${size}`);
      expect(suffix.rawPayload.equals(data.subarray(size - 16))).toBe(true);

      const past = await get(url, `bytes=${size}-${size + 100}`);
      expect(past.statusCode).toBe(416);
      expect(past.headers['content-range']).toBe(`bytes */${size}`);

      const head = await get(url, 'bytes=0-9', 'HEAD');
      expect(head.statusCode).toBe(206);
      expect(head.headers['content-range']).toBe(`bytes 0-9/${size}`);
      expect(head.rawPayload.length).toBe(0);
    });
  }

  it("keeps the look-up: a range of another avatar's file, an unknown file or a wrong extension is 404", async () => {
    const { url } = await uploaded({ field: 'backgroundImage', data: fileOf('mp4', 3000) }, upper);
    const other = await uploaded({ field: 'backgroundImage', data: fileOf('mp4', 3000) }, upper);
    const [, , , , , otherId] = other.url.split('/');
    const file = url.split('/').pop()!;
    const crossed = url.replace(/avatars\/[^/]+\//, `avatars/${otherId}/`);
    expect(crossed).not.toBe(url);
    expect((await get(crossed, 'bytes=0-9')).statusCode).toBe(404);
    expect((await get(url.replace(file, `${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}.mp4`), 'bytes=0-9')).statusCode).toBe(404);
    expect((await get(url.replace(/\.mp4$/, '.glb'), 'bytes=0-9')).statusCode).toBe(404);
  });

  it('serves a catalogue GLB in ranges too', async () => {
    const model = full.modelURL;
    expect(model).toMatch(/\.glb$/);
    const whole = await get(model);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const size = whole.rawPayload.length;
    const part = await get(model, 'bytes=0-11');
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-11/${size}`);
    expect(part.rawPayload.equals(whole.rawPayload.subarray(0, 12))).toBe(true);
    expect((await get(model, `bytes=${size + 5}-`)).statusCode).toBe(416);
  });
});
