import { describe, expect, it } from 'vitest';
import { UserType } from '@parla/shared/enums';
import type { SessionUser } from '../../plugins/auth';
import { SessionCache, type FoundSession } from './session-cache';

const NOW = new Date('2026-01-01T00:00:00Z');
const LATER = new Date(NOW.getTime() + 60 * 60 * 1000);

function session(userId: string, expiresAt = LATER): FoundSession {
  const user: SessionUser = {
    id: userId,
    email: `${userId}@example.com`,
    name: userId,
    type: UserType.Customer,
    sessionId: `s-${userId}`,
    adminProxy: false,
    impersonatorId: null,
  };
  return { user, expiresAt };
}

function setup(o: { ttlMs?: number; maxEntries?: number } = {}) {
  let clock = 0;
  const cache = new SessionCache({ ttlMs: o.ttlMs ?? 30_000, maxEntries: o.maxEntries ?? 100, clock: () => clock });
  cache.setLive(true);
  let loads = 0;
  const find = (key: string, found: FoundSession | null = session(key), now = NOW) =>
    cache.find(key, now, async () => {
      loads += 1;
      return found;
    });
  return { cache, find, loads: () => loads, tick: (ms: number) => (clock += ms) };
}

describe('SessionCache', () => {
  it('looks a session up once and serves it from memory until the cache time passes', async () => {
    const { find, loads, tick } = setup();
    await find('a');
    await find('a');
    expect(loads()).toBe(1);
    tick(30_000);
    await find('a');
    expect(loads()).toBe(2);
  });

  it('never stores a miss: an unknown token is looked up every time', async () => {
    const { find, loads } = setup();
    expect(await find('x', null)).toBeNull();
    expect(await find('x', null)).toBeNull();
    expect(loads()).toBe(2);
  });

  it('never serves an entry at or past its session expiry', async () => {
    const { find, loads } = setup();
    await find('a', session('a', LATER));
    await find('a', session('a', LATER), LATER);
    expect(loads()).toBe(2);
  });

  it("drops every entry of a user when told, and only that user's", async () => {
    const { cache, find, loads } = setup();
    await find('a');
    await find('b');
    cache.forgetUser('a');
    await find('a');
    await find('b');
    expect(loads()).toBe(3);
  });

  it('does not store a result whose look-up began before a notification was handled', async () => {
    const { cache, find, loads } = setup();
    let release!: () => void;
    const slow = cache.find('a', NOW, async () => {
      await new Promise<void>((r) => (release = r));
      return session('a');
    });
    await Promise.resolve();
    cache.forgetUser('someone else');
    release();
    expect((await slow)?.id).toBe('a');
    await find('a');
    expect(loads()).toBe(1);
  });

  it('serves nothing and stores nothing while its invalidation connection is down', async () => {
    const { cache, find, loads } = setup();
    await find('a');
    cache.setLive(false);
    await find('a');
    await find('a');
    expect(loads()).toBe(3);
    cache.setLive(true);
    await find('a');
    await find('a');
    expect(loads()).toBe(4);
  });

  it('keeps at most its bound, dropping the least recently used', async () => {
    const { cache, find, loads } = setup({ maxEntries: 2 });
    await find('a');
    await find('b');
    await find('a'); // a is now the most recent
    await find('c'); // b goes
    expect(cache.size).toBe(2);
    expect(loads()).toBe(3);
    await find('a');
    expect(loads()).toBe(3);
    await find('b');
    expect(loads()).toBe(4);
  });
});
