import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACE_MORPH_TARGETS } from '@parla/shared/visemes';
import type { CatalogueAvatarsResponse, CatalogueEnvironmentsResponse } from '@parla/shared/schemas/catalogue';
import { createTestServer, type TestServer } from '../../../test/harness';

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('catalogue lists', () => {
  it('lists the default avatars of every type without any key, video avatars announced by an empty list', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/catalogue/avatars', appKey: null });
    expect(res.statusCode).toBe(200);
    const { avatars } = res.json() as CatalogueAvatarsResponse;
    const count = (type: string) => avatars.filter((a) => a.type === type).length;
    expect(count('image')).toBeGreaterThanOrEqual(6);
    expect(count('2d')).toBeGreaterThanOrEqual(4);
    expect(count('3d')).toBeGreaterThanOrEqual(2);
    expect(count('vba')).toBe(0);
    for (const a of avatars) {
      expect(a.name).toMatch(/^[A-Z][a-z]+$/);
      expect(a.previewURL).toMatch(/^\/catalogue\/files\/.+\.[0-9a-f]{10}\.webp$/);
      expect(a.modelURL).toMatch(a.type === 'image' ? /\.json$/ : /\.glb$/);
    }
    expect(new Set(avatars.map((a) => a.id)).size).toBe(avatars.length);
  });

  it('lists backgrounds (images and videos), directional lights and 3D environments', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/catalogue/environments', appKey: null });
    expect(res.statusCode).toBe(200);
    const body = res.json() as CatalogueEnvironmentsResponse;
    expect(body.backgrounds.filter((b) => b.kind === 'image').length).toBeGreaterThanOrEqual(6);
    expect(body.backgrounds.filter((b) => b.kind === 'video').length).toBeGreaterThanOrEqual(2);
    expect(body.lights.length).toBeGreaterThanOrEqual(4);
    for (const l of body.lights) expect(l.preset.directional.length).toBeGreaterThan(0);
    expect(body.environments.length).toBeGreaterThanOrEqual(2);
    for (const e of body.environments) expect(e.modelURL).toMatch(/\.glb$/);
  });
});

describe('catalogue files', () => {
  it('serves every listed file with an immutable cache header', async () => {
    const avatars = (await server.inject({ method: 'GET', url: '/api/catalogue/avatars' })).json() as CatalogueAvatarsResponse;
    const envs = (await server.inject({ method: 'GET', url: '/api/catalogue/environments' })).json() as CatalogueEnvironmentsResponse;
    const urls = [
      ...avatars.avatars.flatMap((a) => [a.previewURL, a.modelURL]),
      ...envs.backgrounds.flatMap((b) => [b.url, b.previewURL]),
      ...envs.lights.map((l) => l.previewURL),
      ...envs.environments.flatMap((e) => [e.modelURL, e.previewURL]),
    ];
    for (const url of urls) {
      const res = await server.inject({ method: 'GET', url, appKey: null });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control']).toContain('immutable');
      expect(res.headers['cache-control']).toContain('max-age=31536000');
    }
  });

  it('serves image avatar manifests whose atlas sits beside them and that have a mouth for every viseme', async () => {
    const { avatars } = (await server.inject({ method: 'GET', url: '/api/catalogue/avatars' })).json() as CatalogueAvatarsResponse;
    const image = avatars.find((a) => a.type === 'image')!;
    const manifest = (await server.inject({ method: 'GET', url: image.modelURL })).json();
    expect(manifest.format).toBe('parla-image-avatar');
    expect(Object.keys(manifest.mouth).sort()).toEqual(
      FACE_MORPH_TARGETS.filter((t) => t.startsWith('viseme_'))
        .map((t) => t.slice(7))
        .sort(),
    );
    const atlas = await server.inject({ method: 'GET', url: image.modelURL.replace(/[^/]+$/, manifest.atlas) });
    expect(atlas.statusCode).toBe(200);
    expect(atlas.headers['content-type']).toBe('image/webp');
  });

  it('does not serve the index or anything outside the catalogue folder', async () => {
    expect((await server.inject({ method: 'GET', url: '/catalogue/files/catalogue.json' })).statusCode).toBe(404);
    expect((await server.inject({ method: 'GET', url: '/catalogue/files/../../src/app.ts' })).statusCode).toBe(404);
    expect((await server.inject({ method: 'GET', url: '/catalogue/files/%2e%2e/%2e%2e/package.json' })).statusCode).toBe(404);
  });
});
