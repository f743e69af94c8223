// The conversation runtime of one server process: open conversations, the node registry (with
// the in-process node), limits, the function sandbox, and the hooks phase-specific modules fill
// in (avatar access and configuration, knowledge retrieval, plan minutes).
import { hostname } from 'node:os';
import type WebSocket from 'ws';
import { CLOSE_CODES, MAX_CONVERSATIONS_PER_IP } from '@parla/shared/schemas/conversation';
import { ErrorCode, ERROR_MESSAGES as ERROR_TEXTS } from '@parla/shared/errors';
import { planLimits } from '@parla/shared/plans';
import type { AppContext } from '../context';
import { AppError } from '../lib/errors';
import type { AccessRequest, ResolvedAvatar } from './avatar';
import { TurnRecorder } from './latency';
import { LocalNode } from './nodes/local-node';
import { NodeRegistry } from './nodes/registry';
import { Sandbox } from './sandbox/sandbox';
import { Conversation, type ClientInfo } from './session';
import type { EngineDeps, RetrievedChunk } from './types';
import { addUsageMany, openConversationsFromIp, usageId, usageTodayMany } from './usage';
import { touchConversations } from '../modules/conversations/conversations.repository';
import { minutesUsedThisMonth } from '../modules/account/usage';
import { useGrant } from './oauth';

export const OAUTH_REQUIRED_MESSAGE = 'Please sign in with the partner before starting the conversation.';

/** Conversations are accounted, touched and checked against limits this often. */
export const TICK_MS = 5_000;
/** An open conversation record not touched for this long belonged to a process that died. */
export const STALE_CONVERSATION_MS = 60_000;
/** Conversations the in-process node runs at once. */

export interface RuntimeHooks {
  /** Access check + the avatar's runtime view; throws AppError (notFound, invalidToken, ...). */
  resolveAvatar(ctx: AppContext, req: AccessRequest): Promise<ResolvedAvatar>;
  /** Top chunks of the owner's collections for a query. */
  retrieve(ctx: AppContext, ownerId: string, collectionIds: string[], query: string, topK: number, threshold?: number): Promise<RetrievedChunk[]>;
  /** The OAuth config an avatar's end users sign in with, or null (no access check: the
   *  conversation socket does that). */
  oauthAppOf(ctx: AppContext, avatarId: string): Promise<{ ownerId: string; appId: number } | null>;
}

export const noAvatars: RuntimeHooks = {
  resolveAvatar: async () => {
    throw AppError.notFound('Avatar');
  },
  retrieve: async () => [],
  oauthAppOf: async () => null,
};

export class Runtime {
  readonly registry: NodeRegistry;
  readonly sandbox: Sandbox;
  readonly localNode: LocalNode;
  readonly deps: EngineDeps;
  readonly turns: TurnRecorder;
  private readonly conversations = new Map<string, Conversation>();
  private ticker: NodeJS.Timeout | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  private opening = new Map<string, number>();

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
      for (const owner of new Set(live.map((x) => x.c.ownerId))) {
        const minutes = await this.planMinutes(owner);
        usedUp.set(owner, minutes !== null && (await minutesUsedThisMonth(this.ctx, owner)) >= minutes);
      }
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
    const limit = new Date(this.now().getTime() - STALE_CONVERSATION_MS);
    const stale = await this.ctx.db.selectFrom('conversations').select(['id', 'last_seen_at']).where('ended_at', 'is', null).where('last_seen_at', '<', limit).execute();
    for (const row of stale) {
      if (this.conversations.has(row.id)) continue;
      await this.ctx.db.updateTable('conversations').set({ ended_at: row.last_seen_at, status: 'OFFLINE', end_reason: 'server_lost' }).where('id', '=', row.id).where('ended_at', 'is', null).execute();
    }
    return stale.length;
  }

  get(id: string): Conversation | undefined {
    return this.conversations.get(id);
  }

  list(): Conversation[] {
    return [...this.conversations.values()];
  }

  forget(c: Conversation): void {
    this.conversations.delete(c.id);
  }

  callbackUrl(c: Conversation): string {
    return `${this.ctx.config.PUBLIC_URL}/api/conversation/callback/${c.id}?token=${c.callbackToken}`;
  }

  async planMinutes(ownerId: string): Promise<number | null> {
    const row = await this.ctx.db.selectFrom('users').select('subscription_type').where('id', '=', ownerId).executeTakeFirst();
    return planLimits(row?.subscription_type ?? 0).minutesPerMonth;
  }

  retrieve(ownerId: string, collectionIds: string[], query: string, topK: number, threshold?: number): Promise<RetrievedChunk[]> {
    return this.hooks.retrieve(this.ctx, ownerId, collectionIds, query, topK, threshold);
  }

  /** A node is gone: its conversations end (recorded, billed) and their clients are told. */
  async nodeLost(nodeId: string): Promise<void> {
    const affected = this.list().filter((c) => c.nodeId === nodeId);
    await Promise.all(
      affected.map(async (c) => {
        c.send({ type: 'error', code: ErrorCode.WebSocketError, message: 'The conversation was interrupted because its server went away. Please reconnect.' });
        await c.end('node_lost', CLOSE_CODES.nodeLost);
      }),
    );
  }

  /** Runs one conversation over an accepted socket, from access check to the end. */
  async accept(socket: WebSocket, req: AccessRequest, firstFrame: Promise<string | null>): Promise<void> {
    const refuse = (errorCode: number, closeCode: number, message?: string, extra: Record<string, string> = {}) => {
      if (socket.readyState === 1) socket.send(JSON.stringify({ type: 'error', code: errorCode, message: message ?? errorText(errorCode), ...extra }));
      socket.close(closeCode);
    };
    // OAuth first: a refused conversation must not use up a single-use access token.
    const oauth = await this.hooks.oauthAppOf(this.ctx, req.avatarId);
    if (oauth && !(await useGrant(this.ctx, req.avatarId, req.query.oauthGrant))) {
      return refuse(ErrorCode.AuthenticationFailed, CLOSE_CODES.authenticationFailed, OAUTH_REQUIRED_MESSAGE, {
        signInUrl: `/api/oauth/start/${encodeURIComponent(req.avatarId)}`,
      });
    }
    let avatar: ResolvedAvatar;
    try {
      avatar = await this.hooks.resolveAvatar(this.ctx, req);
    } catch (err) {
      if (err instanceof AppError) {
        const closeCode =
          err.httpStatus === 404 ? CLOSE_CODES.roomNotFound
          : err.code === ErrorCode.InvalidToken ? CLOSE_CODES.invalidToken
          : err.httpStatus === 401 || err.httpStatus === 403 ? CLOSE_CODES.authenticationFailed
          : CLOSE_CODES.invalidParams;
        return refuse(err.httpStatus === 404 ? ErrorCode.RoomNotFoundError : err.code, closeCode, err.errors[0]);
      }
      this.ctx.log.error({ err }, 'resolving an avatar failed');
      return refuse(ErrorCode.ServerError, CLOSE_CODES.serverError);
    }
    if (avatar.allowedOrigins && (!req.origin || !avatar.allowedOrigins.includes(req.origin))) {
      return refuse(ErrorCode.AuthenticationFailed, CLOSE_CODES.originRefused, 'This page may not open conversations with this avatar.');
    }
    // Concurrency per IP: open records (every process) plus the ones opening here.
    const opening = this.opening.get(req.ip) ?? 0;
    if ((await openConversationsFromIp(this.ctx.db, req.ip)) + opening >= MAX_CONVERSATIONS_PER_IP) {
      return refuse(ErrorCode.MaxConcurrencyPerIPReached, CLOSE_CODES.maxConcurrencyPerIP);
    }
    this.opening.set(req.ip, opening + 1);
    const conversation = new Conversation(this, avatar, socket, req.ip);
    try {
      const first = await firstFrame;
      let hello: Record<string, unknown> = {};
      let pending: string | null = null;
      if (first) {
        try {
          const v = JSON.parse(first) as Record<string, unknown>;
          if (v.type === 'hello') hello = v;
          else pending = first;
        } catch {
          pending = first;
        }
      }
      conversation.client = clientInfo(hello, req);
      const limits = await conversation.checkLimitsAtStart();
      if (limits.close) {
        return limits.close.errorCode !== undefined
          ? refuse(limits.close.errorCode, limits.close.code)
          : void (socket.send(JSON.stringify({ type: 'bye', reason: limits.close.reason })), socket.close(limits.close.code));
      }
      const node = this.registry.pick();
      if (!node) return refuse(ErrorCode.MaxConcurrencyReached, CLOSE_CODES.maxConcurrencyReached);
      this.conversations.set(conversation.id, conversation);
      try {
        await conversation.open(node, limits.echo);
      } catch (err) {
        this.conversations.delete(conversation.id);
        node.sessions.delete(conversation.id);
        this.ctx.log.warn({ err: err instanceof Error ? err.message : String(err), avatarId: avatar.id }, 'the engine could not start');
        return refuse(ErrorCode.RequestFail, CLOSE_CODES.requestFail, 'The avatar could not start the conversation. Please try again later.');
      }
      socket.on('message', (data, isBinary) => {
        if (isBinary) return conversation.send({ type: 'error', code: ErrorCode.BinarySocketError, message: 'Send JSON text frames.' });
        conversation.onFrame(String(data));
      });
      socket.on('close', () => void conversation.end('socket', CLOSE_CODES.normal));
      if (socket.readyState !== 1) return void conversation.end('socket', CLOSE_CODES.normal);
      if (pending) conversation.onFrame(pending);
    } finally {
      const n = (this.opening.get(req.ip) ?? 1) - 1;
      if (n <= 0) this.opening.delete(req.ip);
      else this.opening.set(req.ip, n);
    }
  }
}

function errorText(code: number): string {
  return (ERROR_TEXTS as Record<number, string>)[code] ?? 'The conversation could not start.';
}

function str(v: unknown, max = 200): string {
  return typeof v === 'string' ? v.slice(0, max) : '';
}

function clientInfo(hello: Record<string, unknown>, req: AccessRequest): ClientInfo {
  const deviceId = str(hello.deviceId) || `ip:${req.ip}`;
  return {
    userName: str(hello.userName) || 'Guest',
    userId: str(hello.userId) || deviceId,
    deviceId,
    deviceOS: str(hello.deviceOS) || 'Unknown',
    locale: str(hello.locale, 35) || 'en-US',
    spokenLanguage: str(hello.spokenLanguage, 35) || str(hello.locale, 35) || 'en-US',
  };
}
