// Cross-process delivery through the database (decision 630). Each server process has a row in
// runtime_processes, touched every HEARTBEAT_MS by the database's clock; a message for a
// conversation, a node or an owner's conversations on another process is a row of
// runtime_deliveries that process takes (deletes) on its next poll. On PostgreSQL a NOTIFY on
// the addressee's own channel wakes it at once (LISTEN on a dedicated connection); the poll stays
// as the fallback (PGlite, a lost LISTEN connection). Same code on PGlite with one process: a
// message for this process is handled directly.
//
// A process not seen for DEAD_AFTER_MS died (kill -9, or cut off): any live process ends its open
// conversation records at their last heartbeat, marks its nodes OFFLINE and drops its row.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import pg from 'pg';
import type { DB } from '../../db/schema';
import type { Logger } from '../conversation/ports';
import {
  databaseNow,
  deadProcessIds,
  forgetDeadProcess,
  isProcessLive,
  liveProcessIds,
  notifyChannel,
  postDeliveries,
  removeProcess,
  takeDeliveries,
  touchProcess,
} from '../repositories/runtime-processes.repository';
import { parseDelivery, payloadOf, type DeliveryMessage } from './messages';

export const HEARTBEAT_MS = 2_000;
/** Three missed heartbeats: the process is gone. */
export const DEAD_AFTER_MS = 3 * HEARTBEAT_MS;
/** How often a process looks for messages when no NOTIFY woke it. */
export const POLL_MS = 1_000;

export interface DeliveryOptions {
  db: Kysely<DB>;
  log: Logger;
  handle(msg: DeliveryMessage): Promise<unknown>;
  /** PostgreSQL's URL: LISTEN for a wake-up (none: poll only). */
  listenUrl?: string;
  /** Told how many conversation records of dead processes were ended. */
  onDeadProcess?(id: string, conversations: number): void;
}

export class Delivery {
  readonly id = randomUUID();
  private readonly channel = `parla_delivery_${this.id.replace(/-/g, '')}`;
  private timers: NodeJS.Timeout[] = [];
  private listener: pg.Client | null = null;
  private polling: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(private readonly o: DeliveryOptions) {}

  async start(): Promise<void> {
    await this.beat();
    const every = (ms: number, job: () => Promise<unknown>, what: string) => {
      const t = setInterval(() => void job().catch((err: unknown) => this.o.log.warn({ err: String(err) }, what)), ms);
      t.unref();
      this.timers.push(t);
    };
    every(HEARTBEAT_MS, () => this.beat(), 'process heartbeat failed');
    every(POLL_MS, () => this.poll(), 'taking deliveries failed');
    await this.listen();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await this.polling;
    await this.listener?.end().catch(() => undefined);
    this.listener = null;
    await removeProcess(this.o.db, this.id).catch((err: unknown) =>
      this.o.log.warn({ err: String(err) }, 'removing the process row failed'),
    );
  }

  /** Whether a process is alive (this one always is). */
  async isLive(processId: string): Promise<boolean> {
    if (processId === this.id) return true;
    return isProcessLive(this.o.db, processId, await this.liveSince());
  }

  /** Sends a message to one process (handled here at once when it is this one). */
  async send(processId: string, msg: DeliveryMessage): Promise<void> {
    if (processId === this.id) {
      await this.o.handle(msg);
      return;
    }
    await this.post([processId], msg);
  }

  /** Sends a message to every other live process. */
  async broadcast(msg: DeliveryMessage): Promise<void> {
    const others = (await liveProcessIds(this.o.db, await this.liveSince())).filter((id) => id !== this.id);
    await this.post(others, msg);
  }

  /** Takes and handles the messages waiting for this process (one poll at a time; a wake-up
   *  during a poll runs another after it). */
  poll(): Promise<void> {
    if (this.polling) {
      this.again = true;
      return this.polling;
    }
    this.polling = (async () => {
      do {
        this.again = false;
        for (const d of await takeDeliveries(this.o.db, this.id)) {
          const msg = parseDelivery(d.kind, d.payload);
          if (!msg) this.o.log.warn({ kind: d.kind }, 'dropped a malformed delivery');
          else
            await this.o
              .handle(msg)
              .catch((err: unknown) => this.o.log.warn({ err: String(err), kind: msg.kind }, 'handling a delivery failed'));
        }
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  private async post(processIds: string[], msg: DeliveryMessage): Promise<void> {
    if (!processIds.length) return;
    const now = await this.dbNow();
    await postDeliveries(
      this.o.db,
      processIds.map((processId) => ({ processId, kind: msg.kind, payload: payloadOf(msg) })),
      now,
    );
    for (const id of processIds) await notifyChannel(this.o.db, channelOf(id));
  }

  /** Touches this process's row and forgets dead processes (the timer calls it; tests too). */
  async beat(): Promise<void> {
    if (this.stopped) return;
    await touchProcess(this.o.db, this.id, hostname(), await this.dbNow());
    const before = new Date((await this.dbNow()).getTime() - DEAD_AFTER_MS);
    for (const id of await deadProcessIds(this.o.db, before, this.id)) {
      const { conversations } = await forgetDeadProcess(this.o.db, id);
      this.o.log.warn({ processId: id, conversations }, 'a server process died: its conversations ended at their last heartbeat');
      this.o.onDeadProcess?.(id, conversations);
    }
    if (this.o.listenUrl && !this.listener) await this.listen();
  }

  private async listen(): Promise<void> {
    if (!this.o.listenUrl || this.stopped) return;
    const client = new pg.Client({ connectionString: this.o.listenUrl });
    client.on('error', (err) => {
      this.o.log.warn({ err: String(err) }, 'the delivery LISTEN connection failed; polling until it is back');
      if (this.listener === client) this.listener = null;
    });
    client.on('notification', () => void this.poll().catch(() => undefined));
    try {
      await client.connect();
      await client.query(`listen ${this.channel}`);
      this.listener = client;
    } catch (err) {
      this.o.log.warn({ err: String(err) }, 'could not LISTEN for deliveries; polling');
      await client.end().catch(() => undefined);
    }
  }

  private async liveSince(): Promise<Date> {
    return new Date((await this.dbNow()).getTime() - DEAD_AFTER_MS);
  }

  /** The database's clock: processes on different hosts agree on it (the test clock is not used:
   *  liveness is real time). */
  private async dbNow(): Promise<Date> {
    return databaseNow(this.o.db);
  }
}

export function channelOf(processId: string): string {
  return `parla_delivery_${processId.replace(/-/g, '')}`;
}
