// LISTEN/NOTIFY for both databases (decision 017): a dedicated PostgreSQL connection, or PGlite's
// own listener (one process per data directory: a notification comes from this process).
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { PriorityGate } from './pglite-gate';

export interface NotifyHandlers {
  notify(payload: string): void;
  /** The connection ended or stopped answering: nothing is heard until `listen` is called again.
   *  Called at most once, never after `close()`. */
  lost(err: unknown): void;
}

export interface Listening {
  /** PostgreSQL: the connection's backend process id (tests end it with pg_terminate_backend). */
  pid?: number;
  close(): Promise<void>;
}

/** How often the dedicated connection is asked `select 1`, and how long it may take: a
 *  connection dropped without a word (a firewall's idle timeout) is noticed within their sum. */
const LISTEN_PING_MS = 5_000;
const LISTEN_PING_TIMEOUT_MS = 2_000;

const CHANNEL = /^[a-z_][a-z0-9_]*$/;

function checkChannel(channel: string): void {
  if (!CHANNEL.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
}

/** LISTEN on a connection of its own; resolves once the LISTEN is in effect. */
export async function listenPostgres(url: string, channel: string, on: NotifyHandlers): Promise<Listening> {
  checkChannel(channel);
  const client = new pg.Client({
    connectionString: url,
    keepAlive: true,
    connectionTimeoutMillis: 5_000,
    query_timeout: LISTEN_PING_TIMEOUT_MS,
    application_name: `parla-listen-${channel}`,
  });
  let closed = false;
  let ready = false;
  const fail = (err: unknown) => {
    // Before the LISTEN is in effect a failure rejects connect() or the LISTEN itself.
    if (closed || !ready) return;
    closed = true;
    clearInterval(ping);
    client.end().catch(() => undefined);
    on.lost(err);
  };
  client.on('error', fail);
  client.on('end', () => fail(new Error('the LISTEN connection ended')));
  client.on('notification', (n) => {
    if (n.channel === channel) on.notify(n.payload ?? '');
  });
  let pid: number | undefined;
  try {
    await client.connect();
    await client.query(`listen ${channel}`);
    pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
  } catch (err) {
    closed = true;
    await client.end().catch(() => undefined);
    throw err;
  }
  ready = true;
  // `fail` and `close` read it; neither can run before this line (`ready` was false until now).
  const ping = setInterval(() => void client.query('select 1').catch(fail), LISTEN_PING_MS);
  ping.unref();
  return {
    ...(pid !== undefined ? { pid } : {}),
    close: async () => {
      closed = true;
      clearInterval(ping);
      await client.end().catch(() => undefined);
    },
  };
}

/** Every connection of the pool LISTENs too (from its next checkout on): PostgreSQL sends a
 *  session its own notifications before the commit's reply, so a write of this process is heard
 *  on the connection that commits it before the commit returns — at once, whatever the path. */
export function hearOnEveryConnection(pool: pg.Pool, channel: string, notify: (payload: string) => void): () => void {
  checkChannel(channel);
  const heard = new WeakSet<pg.PoolClient>();
  const onNotification = (n: pg.Notification) => {
    if (n.channel === channel) notify(n.payload ?? '');
  };
  const touched = new Set<pg.PoolClient>();
  const onAcquire = (client: pg.PoolClient) => {
    if (heard.has(client)) return;
    heard.add(client);
    touched.add(client);
    client.on('notification', onNotification);
    // Queued ahead of the caller's first statement (and its BEGIN), so never inside a transaction.
    client.query(`listen ${channel}`).catch(() => undefined);
  };
  const onRemove = (client: pg.PoolClient) => touched.delete(client);
  pool.on('acquire', onAcquire);
  pool.on('remove', onRemove);
  return () => {
    pool.off('acquire', onAcquire);
    pool.off('remove', onRemove);
    for (const client of touched) client.off('notification', onNotification);
    touched.clear();
  };
}

/** PGlite's listener, registered while holding the gate (a LISTEN inside another request's open
 *  transaction would be undone by its rollback). It cannot be lost: it is this process. */
export async function listenPglite(pglite: PGlite, gate: PriorityGate, channel: string, on: NotifyHandlers): Promise<Listening> {
  checkChannel(channel);
  const callback = (payload: string) => on.notify(payload);
  const release = await gate.acquire(false);
  let unlisten: () => Promise<void>;
  try {
    unlisten = await pglite.listen(channel, callback);
  } finally {
    release();
  }
  return {
    close: async () => {
      if (pglite.closed) return;
      const again = await gate.acquire(false);
      try {
        await unlisten();
      } finally {
        again();
      }
    },
  };
}
