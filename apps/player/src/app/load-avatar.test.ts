import { describe, expect, it } from 'vitest';
import { routeOf } from './load-avatar';

const id = '6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f';

describe('the page route', () => {
  it('takes a saved avatar by its id exactly as the server made it', () => {
    expect(routeOf(`/avatar/${id}`)).toEqual({ kind: 'avatar', avatarId: id });
    expect(routeOf('/avatar/preview')).toEqual({ kind: 'preview', avatarId: 'preview' });
  });

  it('loads no avatar for an id spelt another way (the server framed that page for no site)', () => {
    for (const path of [
      `/avatar/${id}%20`,
      `/avatar/%20${id}`,
      `/avatar/${id}%09`,
      `/avatar/${id}%2F`,
      `/avatar/${id}/`,
      `/avatar/${id.toUpperCase()}`,
      '/avatar/abc',
      '/avatar/',
    ]) {
      expect(routeOf(path), path).toBeNull();
    }
  });
});
