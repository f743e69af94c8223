// The conversation runtime of one server process: the open conversations, the node registry
// (with the in-process node), the function sandbox, the 5-second tick that accounts every open
// conversation, and the sweep of records left open by a process that died. Admission
// (admission.ts) opens conversations; each conversation is its own parts (conversation/).
import { hostname } from 'node:os';
import type WebSocket from 'ws';
import { CLOSE_CODES } from '@parla/shared/schemas/conversation';
import { ErrorCode } from '@parla/shared/errors';
import type { AppContext } from '../context';
import { endLost, listStaleOpen, touchConversations } from '../modules/conversations/conversations.repository';
import { Admission } from './admission';
import type { AccessRequest } from './avatar';
import type { Conversation, ConversationDeps } from './conversation/conversation';
import { noAvatars, type RuntimeHooks } from './hooks';
import { TurnRecorder } from './latency';
import { LocalNode } from './nodes/local-node';
import { NodeRegistry } from './nodes/registry';
import { addUsageMany, usageId, usageTodayMany } from './repositories/usage-counters.repository';
import { Sandbox } from './sandbox/sandbox';
import { conversationStore, monthlyMinutesUsedUp, usageStore } from './stores';
import type { EngineDeps } from './types';

export { OAUTH_REQUIRED_MESSAGE } from './admission';
export { noAvatars, type RuntimeHooks } from './hooks';

/** Conversations are accounted, touched and checked against limits this often. */
export const TICK_MS = 5_000;
/** An open conversation record not touched for this long belonged to a process that died. */
export const STALE_CONVERSATION_MS = 60_000;
export const NODE_LOST_MESSAGE = 'The conversation was interrupted because its server went away. Please reconnect.';

export class Runtime {
  readonly registry: NodeRegistry;
  readonly sandbox: Sandbox;
  readonly localNode: LocalNode;
  readonly deps: EngineDeps;
  readonly turns: TurnRecorder;
  private readonly admission: Admission;
  private readonly conversations = new Map<string, Conversation>();
  private ticker: NodeJS.Timeout | null = null;
  private sweeper: NodeJS.Timeout | null = null;

  constructor(readonly ctx: AppContext, public hooks: RuntimeHooks = noAvatars) {
    this.sandbox = new Sandbox();
    this.deps = {
      // Read through the context each time: the client in use is the context's (tests install a
      // guarded one with their own resolver after the app is built).
      get outbound() {
        return ctx.outbound;
      },
      log: ctx.log,
      now: ctx.now,
      runTool: (tool, args) => this.sandbox.run(tool, args),
    };
    this.turns = new TurnRecorder(ctx.db, (err) => ctx.log.warn({ err: String(err) }, 'recording turn latency failed'));
    this.registry = new NodeRegistry(ctx.db, ctx.now, (id) => this.nodeLost(id), ctx.log);
    this.localNode = new LocalNode(`local-${hostname()}-${ctx.config.PORT}`, `${hostname()} (in-process)`, ctx.config.LOCAL_NODE_CAPACITY, this.deps);
    const conversation: ConversationDeps = {
      conversations: conversationStore(ctx),
      usage: usageStore(ctx),
      retriever: { retrieve: (ownerId, collectionIds, query, topK, threshold) => this.hooks.retrieve(ctx, ownerId, collectionIds, query, topK, threshold) },
      latency: this.turns,
      nodes: this.registry,
      log: ctx.log,
      now: ctx.now,
      callbackUrl: (id, token) => `${ctx.config.PUBLIC_URL}/api/conversation/callback/${id}?token=${token}`,
      onEnded: (c) => this.conversations.delete(c.id),
    };
    this.admission = new Admission({
      ctx,
      hooks: () => this.hooks,
      registry: this.registry,
      conversation,
      opened: (c) => this.conversations.set(c.id, c),
      failed: (c) => this.conversations.delete(c.id),
    });
  }

  now(): Date {
    return this.ctx.now();
  }

  async start(): Promise<void> {
    await this.registry.add(this.localNode, { address: hostname(), privateIp: '127.0.0.1', remoteIp: '', webSocket: '' });
    this.registry.start();
    this.ticker = setInterval(() => void this.tickAll(), TICK_MS);
    this.ticker.unref();
    const sweep = () => this.sweepStale().catch((err: unknown) => this.ctx.log.warn({ err: String(err) }, 'conversation sweep failed'));
    void sweep();
    this.sweeper = setInterval(() => void sweep(), STALE_CONVERSATION_MS);
    this.sweeper.unref();
  }

  async stop(): Promise<void> {
    if (this.ticker) clearInterval(this.ticker);
    if (this.sweeper) clearInterval(this.sweeper);
    await Promise.all([...this.conversations.values()].map((c) => c.end('server', CLOSE_CODES.serverClosing)));
    await this.registry.stop();
    await this.turns.flush();
    await this.sandbox.close();
  }

  /** Runs one conversation over an accepted socket, from access check to the end. */
  accept(socket: WebSocket, req: AccessRequest, firstFrame: Promise<string | null>): Promise<void> {
    return this.admission.accept(socket, req, firstFrame);
  }

  /** Accounts every open conversation now (tests call it after moving the clock): their
   *  seconds, last-seen times and today's usage in a few statements for all of them (not a few
   *  per conversation: idle conversations must cost the database little), the plan's monthly
   *  minutes once per owner, then each conversation's limits. */
  async tickAll(): Promise<void> {
    const now = this.now();
    const nowMs = now.getTime();
    const live = [...this.conversations.values()].flatMap((c) => {
      const part = c.account(nowMs);
      return part ? [{ c, ...part }] : [];
    });
    if (!live.length) return;
    try {
      await addUsageMany(this.ctx.db, live, now);
      await touchConversations(this.ctx.db, live.map((x) => x.c.id), now);
      const used = await usageTodayMany(this.ctx.db, live.flatMap((x) => x.keys), now);
      const usedUp = new Map<string, boolean>();
      for (const owner of new Set(live.map((x) => x.c.ownerId))) usedUp.set(owner, await monthlyMinutesUsedUp(this.ctx, owner));
      await Promise.all(
        live.map(({ c }) =>
          c.applyLimits(nowMs, (k) => used.get(usageId(k)) ?? 0, usedUp.get(c.ownerId) ?? false).catch((err: unknown) => this.ctx.log.warn({ err: String(err) }, 'tick failed')),
        ),
      );
    } catch (err) {
      this.ctx.log.warn({ err: String(err) }, 'tick failed');
    }
  }

  /** Ends conversation records left open by a process that died (they end when last seen). */
  async sweepStale(): Promise<number> {
    const stale = await listStaleOpen(this.ctx.db, new Date(this.now().getTime() - STALE_CONVERSATION_MS));
    for (const row of stale) {
      if (!this.conversations.has(row.id)) await endLost(this.ctx.db, row.id, row.last_seen_at);
    }
    return stale.length;
  }

  get(id: string): Conversation | undefined {
    return this.conversations.get(id);
  }

  list(): Conversation[] {
    return [...this.conversations.values()];
  }

  /** A node is gone: its conversations end (recorded, billed) and their clients are told. */
  async nodeLost(nodeId: string): Promise<void> {
    const affected = this.list().filter((c) => c.nodeId === nodeId);
    await Promise.all(
      affected.map(async (c) => {
        c.send({ type: 'error', code: ErrorCode.WebSocketError, message: NODE_LOST_MESSAGE });
        await c.end('node_lost', CLOSE_CODES.nodeLost);
      }),
    );
  }
}
