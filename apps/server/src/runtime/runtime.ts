// The conversation runtime of one server process: the open conversations, the node registry
// (with the in-process node), the function sandbox, the 5-second tick that accounts every open
// conversation, and the sweep of records left open by a process that died. Admission
// (admission.ts) opens conversations; each conversation is its own parts (conversation/).
// What is addressed to a conversation, a node or an owner held by another process travels
// through the database (delivery/, decision 630).
import { hostname } from 'node:os';
import type WebSocket from 'ws';
import { CLOSE_CODES } from '@parla/shared/schemas/conversation';
import { ErrorCode } from '@parla/shared/errors';
import { AVATAR_UNAVAILABLE_MESSAGE } from '@parla/shared/schemas/avatar-access';
import type { AppContext } from '../context';
import {
  endConversations,
  endLost,
  findConversation,
  listStaleOpen,
  touchConversations,
} from '../modules/conversations/conversations.repository';
import { Metrics } from '../lib/metrics';
import { inBackground } from '../db/pglite-gate';
import { countQueuedItems } from '../modules/knowledge/knowledge.repository';
import { Admission } from './admission';
import type { AccessRequest } from './avatar';
import type { Conversation, ConversationDeps } from './conversation/conversation';
import { CallbackTokens } from './delivery/callback-token';
import { Delivery } from './delivery/delivery';
import type { DeliveryMessage } from './delivery/messages';
import { noAvatars, type RuntimeHooks } from './hooks';
import { TurnRecorder } from './latency';
import { LocalNode } from './nodes/local-node';
import { NodeRegistry } from './nodes/registry';
import { findNode } from './repositories/pipeline-nodes.repository';
import { addUsageMany, usageId, usageTodayMany } from './repositories/usage-counters.repository';
import { stopSnapshotMaker } from './sandbox/confinement';
import { performance } from 'node:perf_hooks';
import { Sandbox } from './sandbox/sandbox';
import { CallLog, excerpt } from '../modules/functions/function-calls';
import { sandboxCaps } from '../config';
import { EmbeddedVoicePool } from './engines/embedded/voice-pool';
import { conversationStore, monthlyMinutesUsedUp, productModel, transcriptStore, usageStore } from './stores';
import { transcriptKey } from '../modules/conversations/transcript-key';
import type { TranscriptWriter } from './transcript-writer';
import type { EngineDeps, FunctionTool } from './types';

export { OAUTH_REQUIRED_MESSAGE } from './admission';
export { noAvatars, type RuntimeHooks } from './hooks';

/** Conversations are accounted, touched and checked against limits this often. */
export const TICK_MS = 5_000;
/** An open conversation record not touched for this long belonged to a process that died. */
export const STALE_CONVERSATION_MS = 60_000;
/** Conversations accounted per statement of the tick (each statement holds PGlite's thread). */
const TICK_SLICE = 100;
export const NODE_LOST_MESSAGE = 'The conversation was interrupted because its server went away. Please reconnect.';

export class Runtime {
  readonly registry: NodeRegistry;
  readonly sandbox: Sandbox;
  /** Live function calls, written off the turn's path (decision 415). */
  readonly callLog: CallLog;
  /** The embedded voice's workers, started at the first sentence they speak (decision 122). */
  readonly voices: EmbeddedVoicePool | undefined;
  readonly localNode: LocalNode;
  readonly deps: EngineDeps;
  readonly turns: TurnRecorder;
  /** Every conversation's transcript messages, written in batches (transcript-writer.ts). */
  readonly transcripts: TranscriptWriter;
  readonly delivery: Delivery;
  readonly metrics: Metrics;
  readonly callbackTokens: CallbackTokens;
  private readonly admission: Admission;
  private readonly conversations = new Map<string, Conversation>();
  private ticker: NodeJS.Timeout | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  private closing = false;

  constructor(
    readonly ctx: AppContext,
    public hooks: RuntimeHooks = noAvatars,
  ) {
    this.sandbox = new Sandbox(sandboxCaps(ctx.config));
    this.callLog = new CallLog(ctx.db, ctx.log);
    // Layer 1 of the sandbox (decision 601) needs a root server; say so once (docs/deploy.md).
    if (typeof process.getuid === 'function' && process.getuid() !== 0)
      ctx.log.info(
        'Functions run as the server\'s own user: start the server as root with only CAP_SETUID/CAP_SETGID to run them as nobody (docs/deploy.md, "Function sandbox").',
      );
    this.voices = ctx.config.EMBEDDED_VOICE
      ? new EmbeddedVoicePool({ ...(ctx.config.EMBEDDED_VOICE_WORKERS ? { workers: ctx.config.EMBEDDED_VOICE_WORKERS } : {}) })
      : undefined;
    this.deps = {
      // Read through the context each time: the client in use is the context's (tests install a
      // guarded one with their own resolver after the app is built).
      get outbound() {
        return ctx.outbound;
      },
      log: ctx.log,
      now: ctx.now,
      runTool: (tool, args) => this.runTool(tool, args),
      modelTimeouts: { firstTokenMs: ctx.config.LLM_FIRST_TOKEN_MS, stallMs: ctx.config.LLM_STALL_MS },
      ...(this.voices ? { voices: this.voices } : {}),
    };
    this.delivery = new Delivery({
      db: ctx.db,
      log: ctx.log,
      handle: (msg) => this.deliver(msg),
      ...(ctx.database.kind === 'postgres' && ctx.config.DATABASE_URL ? { listenUrl: ctx.config.DATABASE_URL } : {}),
    });
    this.callbackTokens = new CallbackTokens(ctx.jwtKey);
    this.metrics = new Metrics(
      { openConversations: () => this.conversations.size, ingestionQueueDepth: () => countQueuedItems(ctx.db) },
      { processMetrics: !!ctx.config.METRICS_TOKEN },
    );
    this.transcripts = transcriptStore(ctx);
    this.turns = new TurnRecorder(ctx.db, (err) => ctx.log.warn({ err: String(err) }, 'recording turn latency failed'));
    this.registry = new NodeRegistry(ctx.db, ctx.now, (id) => this.nodeLost(id), ctx.log, this.delivery.id);
    this.localNode = new LocalNode(
      `local-${hostname()}-${ctx.config.PORT}`,
      `${hostname()} (in-process)`,
      ctx.config.LOCAL_NODE_CAPACITY,
      this.deps,
    );
    const conversation: ConversationDeps = {
      conversations: conversationStore(ctx, this.delivery.id, () => this.closing),
      usage: usageStore(ctx),
      retriever: {
        retrieve: (ownerId, collectionIds, query, topK, threshold) =>
          this.hooks.retrieve(ctx, ownerId, collectionIds, query, topK, threshold),
      },
      latency: {
        add: (t) => {
          this.turns.add(t);
          this.metrics.turn({ ...t, provider: this.get(t.conversationId)?.avatar.engine.kind ?? 'unknown' });
        },
      },
      nodes: this.registry,
      log: ctx.log,
      now: ctx.now,
      callbackToken: (id) => this.callbackTokens.tokenOf(id),
      callbackUrl: (id, token) => `${ctx.config.PUBLIC_URL}/api/conversation/callback/${id}?token=${token}`,
      transcripts: this.transcripts,
      engines: this.deps,
      productModel: productModel(ctx.config),
      transcriptUrl: (id) => `${ctx.config.PUBLIC_URL}/api/conversation/transcript/${id}?key=${transcriptKey(ctx.jwtKey, id)}`,
      onEnded: (c) => this.conversations.delete(c.id),
    };
    this.admission = new Admission({
      ctx,
      hooks: () => this.hooks,
      registry: this.registry,
      conversation,
      closing: () => this.closing,
      opened: (c) => this.conversations.set(c.id, c),
      failed: (c) => this.conversations.delete(c.id),
    });
  }

  now(): Date {
    return this.ctx.now();
  }

  async start(): Promise<void> {
    await this.delivery.start();
    await this.registry.add(this.localNode, { address: hostname(), privateIp: '127.0.0.1', remoteIp: '', webSocket: '' });
    this.registry.start();
    this.ticker = setInterval(() => void this.tickAll(), TICK_MS);
    this.ticker.unref();
    const sweep = () => this.sweepStale().catch((err: unknown) => this.ctx.log.warn({ err: String(err) }, 'conversation sweep failed'));
    void sweep();
    this.sweeper = setInterval(() => void sweep(), STALE_CONVERSATION_MS);
    this.sweeper.unref();
  }

  /** Shutdown (decision 014): no conversation opens from now on, and every open one is told why
   *  it ends (`bye` 'server', close code serverClosing: the player says the server is restarting
   *  and reconnects, to another process when there is one), then recorded and billed once, its
   *  transcript written. Each end's outbound calls (the REST endpoint's LOGOUT...) are short:
   *  the outbound client is in its shutdown mode. */
  async endAll(): Promise<void> {
    this.closing = true;
    if (this.ticker) clearInterval(this.ticker);
    if (this.sweeper) clearInterval(this.sweeper);
    // The nodes go offline as a whole in stop(): not one node update per ending conversation.
    this.registry.quiet();
    await this.recordEnds();
    await Promise.all(
      this.list().map(async (c) => {
        await c.end('server', CLOSE_CODES.serverClosing);
        await c.effects.transcript.flushed();
      }),
    );
    await this.transcripts.flush();
    await this.turns.flush();
  }

  /** Every open conversation's last seconds and end in a few statements (as the tick does):
   *  a thousand conversations ending one by one would hold PGlite's one connection for seconds.
   *  When this fails, each conversation's end records itself. */
  private async recordEnds(): Promise<void> {
    const now = this.now();
    const live = this.list().flatMap((c) => {
      const part = c.account(now.getTime());
      return part ? [{ c, ...part }] : [];
    });
    if (!live.length) return;
    try {
      await addUsageMany(this.ctx.db, live, now);
      await endConversations(
        this.ctx.db,
        live.map((x) => x.c.id),
        now,
        'server',
      );
      for (const x of live) x.c.accounting.endRecorded();
    } catch (err) {
      this.ctx.log.warn({ err: String(err) }, 'recording the ends of the conversations failed');
    }
  }

  /** Whether the process is shutting down (admission refuses). */
  get isClosing(): boolean {
    return this.closing;
  }

  /** A live function call, recorded in its function's log (not awaited: the turn does not wait). */
  private async runTool(tool: FunctionTool, args: unknown): Promise<string> {
    const started = performance.now();
    const { ok, text } = await this.sandbox.call(tool, args);
    this.callLog.record({
      function_id: tool.id,
      avatar_id: tool.avatarId ?? null,
      called_at: this.ctx.now(),
      duration_ms: Math.round(performance.now() - started),
      ok,
      excerpt: excerpt(text),
    });
    return text;
  }

  /** Kills the function sandbox's and the embedded voice's processes now (synchronously: also at
   *  the shutdown's deadline). */
  killChildren(): void {
    void this.sandbox.close();
    void this.voices?.close();
    stopSnapshotMaker();
  }

  async stop(): Promise<void> {
    await this.endAll();
    await this.registry.stop();
    await this.delivery.stop();
    await this.transcripts.flush();
    await this.turns.flush();
    await this.callLog.stop();
    await this.sandbox.close();
    await this.voices?.close();
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
      // In slices, as background work (decision 222's gate): on PGlite each statement runs on
      // this thread, and one statement for a thousand conversations held it for about 110 ms
      // of CPU every tick, during which no turn was answered (issue 37). The slices are added
      // first, then read, so a key shared across slices (an address) reads its whole total.
      const slices: (typeof live)[] = [];
      for (let i = 0; i < live.length; i += TICK_SLICE) slices.push(live.slice(i, i + TICK_SLICE));
      const used = new Map<string, number>();
      await inBackground(async () => {
        for (const part of slices) await addUsageMany(this.ctx.db, part, now);
        for (const part of slices)
          await touchConversations(
            this.ctx.db,
            part.map((x) => x.c.id),
            now,
          );
        for (const part of slices)
          for (const [k, v] of await usageTodayMany(
            this.ctx.db,
            part.flatMap((x) => x.keys),
            now,
          ))
            used.set(k, v);
      });
      const usedUp = new Map<string, boolean>();
      for (const owner of new Set(live.map((x) => x.c.ownerId))) usedUp.set(owner, await monthlyMinutesUsedUp(this.ctx, owner));
      await Promise.all(
        live.map(({ c }) =>
          c
            .applyLimits(nowMs, (k) => used.get(usageId(k)) ?? 0, usedUp.get(c.ownerId) ?? false)
            .catch((err: unknown) => this.ctx.log.warn({ err: String(err) }, 'tick failed')),
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

  /** A REST endpoint's callback: the conversation says the message, on whichever process holds
   *  it; false when there is no such open conversation or the token is not its own. */
  async callback(id: string, token: string | undefined, message: string): Promise<boolean> {
    if (!this.callbackTokens.check(id, token)) return false;
    const local = this.get(id);
    if (local) {
      local.say(message);
      return true;
    }
    const row = await findConversation(this.ctx.db, id);
    if (!row || row.ended_at || !row.process_id || !(await this.delivery.isLive(row.process_id))) return false;
    await this.delivery.send(row.process_id, { kind: 'say', conversationId: id, message });
    return true;
  }

  /** Ends the owner's conversations held by this process (an administrator suspended the
   *  account); how many there were. */
  async endOwner(ownerId: string): Promise<number> {
    const live = this.list().filter((c) => c.ownerId === ownerId);
    await Promise.all(
      live.map((c) => c.refuse(ErrorCode.AuthenticationFailed, CLOSE_CODES.authenticationFailed, AVATAR_UNAVAILABLE_MESSAGE)),
    );
    return live.length;
  }

  /** Ends the owner's conversations here and tells every other process to do the same. */
  async endOwnerEverywhere(ownerId: string): Promise<number> {
    const here = await this.endOwner(ownerId);
    await this.delivery.broadcast({ kind: 'end-owner', ownerId });
    return here;
  }

  /** A live node connected to another process: that process is told to disconnect it. True when
   *  it was (the caller forgets the row); false when no live process holds it. */
  async disconnectElsewhere(nodeId: string): Promise<boolean> {
    const row = await findNode(this.ctx.db, nodeId);
    if (
      !row?.process_id ||
      row.status === 'OFFLINE' ||
      row.process_id === this.delivery.id ||
      !(await this.delivery.isLive(row.process_id))
    )
      return false;
    await this.delivery.send(row.process_id, { kind: 'node-disconnect', nodeId });
    return true;
  }

  /** A message from another process (or this one). */
  private async deliver(msg: DeliveryMessage): Promise<void> {
    if (msg.kind === 'say') this.get(msg.conversationId)?.say(msg.message);
    else if (msg.kind === 'end-owner') await this.endOwner(msg.ownerId);
    else {
      const live = this.registry.get(msg.nodeId);
      if (!live || live.inProcess) return;
      live.disconnect('deleted by an administrator');
      await this.registry.lost(live, 'deleted');
    }
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
