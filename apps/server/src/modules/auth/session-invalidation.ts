// Keeps the session cache honest (decision 017): the database notifies `parla_auth` with a user's
// id whenever a row of users or sessions changes (migration 0660); every process LISTENs and
// drops that user's entries. The cache serves only while the LISTEN connection is up: when it is
// lost the cache is emptied and bypassed, and the connection is tried again every RETRY_MS.
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import type { Listening } from '../../db/notifications';
import type { SessionCache } from './session-cache';

const AUTH_CHANNEL = 'parla_auth';
/** The payload of a TRUNCATE: every entry goes. */
const EVERYONE = '*';
const RETRY_MS = 1_000;

export class SessionInvalidation {
  private listening: Listening | null = null;
  private unhearOwn: (() => void) | null = null;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Logged once per outage, not at every attempt. */
  private failing = false;
  /** Told of every notification handled (the cross-process test times them). */
  onNotify: ((payload: string) => void) | undefined;

  constructor(
    private readonly database: Database,
    private readonly cache: SessionCache,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Whether the LISTEN connection is up (the cache serves only then). */
  get up(): boolean {
    return this.listening !== null;
  }

  /** PostgreSQL: the LISTEN connection's backend (tests end it). */
  get listenerPid(): number | undefined {
    return this.listening?.pid;
  }

  async start(): Promise<void> {
    this.unhearOwn = this.database.hearOwnWrites?.(AUTH_CHANNEL, (p) => this.handle(p)) ?? null;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    this.unhearOwn?.();
    this.cache.setLive(false);
    const listening = this.listening;
    this.listening = null;
    await listening?.close();
  }

  private handle(payload: string): void {
    if (payload === EVERYONE) this.cache.forgetAll();
    else this.cache.forgetUser(payload);
    this.onNotify?.(payload);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    try {
      const listening = await this.database.listen(AUTH_CHANNEL, {
        notify: (payload) => this.handle(payload),
        lost: (err) => {
          if (this.listening !== listening) return;
          this.listening = null;
          this.cache.setLive(false);
          this.failing = true;
          this.log.warn({ err: String(err) }, 'session cache off: its LISTEN connection was lost; trying again');
          this.later();
        },
      });
      if (this.stopped) {
        await listening.close();
        return;
      }
      this.listening = listening;
      if (this.failing) this.log.info('session cache on again: its LISTEN connection is back');
      this.failing = false;
      // From here on every change is heard; what was looked up before may be stale (setLive
      // empties the cache and moves the generation on, so no look-up begun earlier is stored).
      this.cache.setLive(true);
    } catch (err) {
      if (!this.failing) this.log.warn({ err: String(err) }, 'session cache off: could not LISTEN; trying again every second');
      this.failing = true;
      this.later();
    }
  }

  private later(): void {
    if (this.stopped) return;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.connect(), RETRY_MS);
    this.retry.unref();
  }
}
