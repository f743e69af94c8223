// The session look-ups of this process, kept a few seconds (decision 017). Safe only while the
// process hears every change of users and sessions (session-invalidation.ts): `setLive(false)`
// empties it and every look-up goes to the database until `setLive(true)`.
//
// The race it guards: a look-up whose query began before a change committed may answer after
// the change's notification was handled. Every notification (and every change of liveness)
// moves `generation` on; a result is stored only when the generation did not move while its
// query ran, so such a result serves its own request (as it would without a cache) and no other.
import type { SessionUser } from './session-user';

/** Entries one process keeps: about half a kilobyte each, so 5 MB at most, and room for every
 *  session active at once on a process of today's sizes (the least recent go first beyond it). */
export const SESSION_CACHE_MAX_ENTRIES = 10_000;

/** What a look-up finds: the user, and when the session expires (never served after that). */
export interface FoundSession {
  user: SessionUser;
  expiresAt: Date;
}

export interface SessionCacheOptions {
  /** How long an entry is served (monotonic ms); 0 turns the cache off. */
  ttlMs: number;
  /** Entries kept; the least recently used goes first. */
  maxEntries: number;
  /** A monotonic clock in ms (tests may pass their own). */
  clock?: () => number;
}

interface Entry {
  user: SessionUser;
  expiresAt: number;
  storedAt: number;
}

export class SessionCache {
  /** Map order is recency: a hit moves its entry to the end, eviction takes the first. */
  private readonly entries = new Map<string, Entry>();
  /** The keys of each user's entries, so that a user's notification drops them all. */
  private readonly byUser = new Map<string, Set<string>>();
  private generation = 0;
  private live = false;
  private readonly clock: () => number;
  /** Counters for tests and the log. */
  readonly stats = { hits: 0, misses: 0, dropped: 0 };

  constructor(private readonly o: SessionCacheOptions) {
    this.clock = o.clock ?? (() => performance.now());
  }

  /** Whether entries are served now (the invalidation connection is up and a TTL is set). */
  get serving(): boolean {
    return this.live && this.o.ttlMs > 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The session of `key` at `now`: from memory when a live entry is there, else from `load`
   *  (stored when nothing was invalidated while it ran). A miss (null) is never stored. */
  async find(key: string, now: Date, load: () => Promise<FoundSession | null>): Promise<SessionUser | null> {
    if (this.serving) {
      const hit = this.entries.get(key);
      if (hit && hit.expiresAt > now.getTime() && this.clock() - hit.storedAt < this.o.ttlMs) {
        this.entries.delete(key);
        this.entries.set(key, hit);
        this.stats.hits += 1;
        return hit.user;
      }
      if (hit) this.remove(key, hit.user.id);
    }
    this.stats.misses += 1;
    const started = this.generation;
    const found = await load();
    if (!found) return null;
    if (this.serving && started === this.generation) this.store(key, found);
    return found.user;
  }

  /** A user's sessions or account changed: their entries go. */
  forgetUser(userId: string): void {
    this.generation += 1;
    const keys = this.byUser.get(userId);
    if (!keys) return;
    for (const key of keys) this.entries.delete(key);
    this.stats.dropped += keys.size;
    this.byUser.delete(userId);
  }

  forgetAll(): void {
    this.generation += 1;
    this.stats.dropped += this.entries.size;
    this.entries.clear();
    this.byUser.clear();
  }

  /** Up: changes are heard from now on. Down: nothing is heard, so nothing is kept or served. */
  setLive(live: boolean): void {
    this.forgetAll();
    this.live = live;
  }

  private store(key: string, found: FoundSession): void {
    const old = this.entries.get(key);
    if (old) this.remove(key, old.user.id);
    const user = Object.freeze({ ...found.user });
    this.entries.set(key, { user, expiresAt: found.expiresAt.getTime(), storedAt: this.clock() });
    let keys = this.byUser.get(user.id);
    if (!keys) this.byUser.set(user.id, (keys = new Set()));
    keys.add(key);
    while (this.entries.size > this.o.maxEntries) {
      const [oldestKey, oldest] = this.entries.entries().next().value as [string, Entry];
      this.remove(oldestKey, oldest.user.id);
    }
  }

  private remove(key: string, userId: string): void {
    this.entries.delete(key);
    const keys = this.byUser.get(userId);
    keys?.delete(key);
    if (keys?.size === 0) this.byUser.delete(userId);
  }
}
