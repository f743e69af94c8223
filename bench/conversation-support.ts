// Shared by the conversation benches: a real server (PGlite in memory) listening on loopback,
// an avatar table for the runtime, conversations that rotate before the per-minute text limit,
// and percentile printing.
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import WebSocket from 'ws';
import { CONVERSATION_TEXT_BURST } from '../packages/shared/src/schemas/conversation';
import { build } from '../apps/server/src/app';
import { parseConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/database';
import { migrate } from '../apps/server/src/db/migrate';
import { DEFAULT_LIMITS } from '../apps/server/src/runtime/avatar';
import type { EngineConfig } from '../apps/server/src/runtime/types';

export const SECRET = 'bench-secret-key-0123456789-0123456789-abcdef';

/** `dataDir`: PGlite on disk there, as `npm start` runs it (default: in memory, where the
 *  database's pages are the server's own memory). */
export async function startBenchServer(engines: Record<string, EngineConfig>, allow: string[] = [], dataDir?: string) {
  const database = await openDatabase(dataDir ? { dataDir } : {});
  await migrate(database.db);
  const config = parseConfig({
    SECRET_KEY: SECRET,
    LOG_LEVEL: 'silent',
    LOCAL_NODE_CAPACITY: '100000',
    DATA_DIR: '/tmp/parla-bench',
    OUTBOUND_ALLOW: allow.join(','),
  });
  const { app } = await build({ config, database, secretKey: SECRET, serveWeb: false });
  // BENCH_HOLDS=1 (bench/turn-cost.ts): which statements held PGlite's one connection long.
  if (process.env.BENCH_HOLDS) {
    const holds: { ms: number; bg: boolean; sql: string }[] = [];
    database.gate?.observe((ms, bg, q) => holds.push({ ms, bg, sql: (q ?? '').replace(/\s+/g, ' ').slice(0, 60) }));
    setInterval(() => {
      const big = holds.filter((h) => h.ms > 8);
      const by = new Map<string, number[]>();
      for (const h of big) by.set(h.sql, [...(by.get(h.sql) ?? []), h.ms]);
      console.error(
        `holds ${holds.length}, over 8 ms ${big.length}:`,
        [...by]
          .map(([k, v]) => `${k} n=${v.length} max=${Math.max(...v).toFixed(0)} sum=${v.reduce((a, b) => a + b, 0).toFixed(0)}`)
          .join(' | '),
      );
      holds.length = 0;
    }, 5000).unref();
  }
  await database.db
    .insertInto('users')
    .values({
      id: 'bench-owner',
      email: 'bench@example.com',
      password_hash: 'x',
      first_name: 'B',
      last_name: 'B',
      subscription_type: 4,
      subscribed_since: new Date(),
      created_at: new Date(),
      updated_at: new Date(),
    })
    .execute();
  // The avatars exist as rows: the transcript's messages reference them (without a row every
  // message's insert failed, which is not the product's work).
  for (const id of Object.keys(engines))
    await sql`insert into avatars (id, owner_id, name, dh_type, appearance_id, token, created_at, updated_at)
      values (${id}, 'bench-owner', ${id}, '2d', 'a', ${`token-${id}`}, now(), now())`.execute(database.db);
  app.runtime.hooks = {
    resolveAvatar: async (_ctx, req) => ({
      id: req.avatarId,
      ownerId: 'bench-owner',
      name: req.avatarId,
      type: '2d',
      engineName: req.avatarId,
      engine: engines[req.avatarId]!,
      limits: DEFAULT_LIMITS,
      retrieval: null,
      allowedOrigins: null,
      sendHistory: false,
      oauthAppId: null,
    }),
    retrieve: async () => [],
    oauthAppOf: async () => null,
  };
  (globalThis as { __rt?: unknown }).__rt = app.runtime;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const host = `127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    host,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/** A conversation that answers one turn at a time; a fresh one every N turns (the text limit). */
export class Turns {
  private ws: WebSocket | null = null;
  private used = 0;
  private onMessage: ((m: { type: string; text?: string }) => void) | null = null;

  constructor(
    private readonly host: string,
    private readonly avatarId: string,
  ) {}

  private async open(): Promise<WebSocket> {
    if (this.ws) {
      const old = this.ws;
      await new Promise<void>((r) => {
        old.once('close', () => r());
        old.close();
      });
    }
    const ws = new WebSocket(`ws://${this.host}/ws/conversation?avatarId=${this.avatarId}`);
    ws.on('message', (d) => this.onMessage?.(JSON.parse(String(d)) as { type: string }));
    await new Promise<void>((resolve, reject) => {
      ws.once('error', reject);
      this.onMessage = (m) => m.type === 'ready' && resolve();
      ws.once('open', () => ws.send(JSON.stringify({ type: 'hello', deviceId: `bench-${Date.now()}` })));
    });
    this.ws = ws;
    this.used = 0;
    return ws;
  }

  /** Sends text; resolves with ms to the first delta and to done. */
  async turn(text: string): Promise<{ first: number; done: number; text: string }> {
    const ws = this.ws && this.used < CONVERSATION_TEXT_BURST - 2 ? this.ws : await this.open();
    this.used++;
    return new Promise((resolve) => {
      const t0 = performance.now();
      let first = -1;
      this.onMessage = (m) => {
        if (m.type === 'assistant_delta' && first < 0) first = performance.now() - t0;
        if (m.type === 'assistant_done') resolve({ first, done: performance.now() - t0, text: m.text ?? '' });
      };
      ws.send(JSON.stringify({ type: 'user_text', text }));
    });
  }

  close(): void {
    this.ws?.close();
  }
}

export const ms = (v: number) => `${v.toFixed(3)} ms`;
