// The avatars module's view of the catalogue (appearances, backgrounds, lights, 3D
// environments): read through the catalogue's own HTTP contract (design/api.md), in-process,
// and kept for a minute. Creating an avatar checks its appearance here; the player's public
// view resolves lighting presets and environment staging here.
import type { FastifyInstance } from 'fastify';
import {
  catalogueAvatarsResponse,
  catalogueEnvironmentsResponse,
  type CatalogueAvatar,
  type CatalogueEnvironmentsResponse,
} from '@parla/shared/schemas/catalogue';
import type { AppContext } from '../../context';

export interface Catalogue {
  avatar(id: string): Promise<CatalogueAvatar | null>;
  environments(): Promise<CatalogueEnvironmentsResponse>;
}

const TTL_MS = 60_000;

export function catalogueOf(app: FastifyInstance, ctx: AppContext): Catalogue {
  const cache = new Map<string, { at: number; value: unknown }>();

  async function read<T>(url: string, parse: (v: unknown) => T): Promise<T> {
    const hit = cache.get(url);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.value as T;
    const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ctx.config.APP_KEY}` } });
    if (res.statusCode !== 200) throw new Error(`catalogue ${url} answered ${res.statusCode}`);
    const value = parse(res.json());
    cache.set(url, { at: Date.now(), value });
    return value;
  }

  return {
    async avatar(id) {
      const { avatars } = await read('/api/catalogue/avatars', (v) => catalogueAvatarsResponse.parse(v));
      return avatars.find((a) => a.id === id) ?? null;
    },
    environments: () => read('/api/catalogue/environments', (v) => catalogueEnvironmentsResponse.parse(v)),
  };
}
