// One conversation between an end user and an avatar: the protocol of
// @parla/shared/schemas/conversation on one side, an engine on a pipeline node on the other.
// It streams replies, handles interruptions, accounts time against the persisted limits, writes
// the conversation record (start, end, duration) and each turn's latency.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type WebSocket from 'ws';
import {
  CLOSE_CODES,
  CONVERSATION_MAX_FRAMES_PER_SECOND,
  CONVERSATION_MAX_TEXTS_PER_MINUTE,
  parseClientMessage,
  type ByeReason,
  type ClientMessage,
  type ServerMessage,
} from '@parla/shared/schemas/conversation';
import { ErrorCode, ERROR_MESSAGES } from '@parla/shared/errors';
import { endConversation, startConversation } from '../modules/conversations/conversations.repository';
import type { ResolvedAvatar } from './avatar';
import { EchoEngine } from './engines/echo';
import type { NodeHandle } from './nodes/node';
import type { RemoteNode } from './nodes/remote-node';
import type { Runtime } from './runtime';
import type { ChatMessage, Engine, EngineEvent, EngineHost, OpenInfo, RetrievedChunk } from './types';
import { minutesUsedThisMonth } from '../modules/account/usage';
import { addUsage, usageToday, type UsageKey } from './usage';

/** History kept for the brain: the last 20 messages. */
const HISTORY_LIMIT = 20;
/** Words per second used to estimate how long the player speaks a reply. */
const SPEAKING_WORDS_PER_SECOND = 3;

interface Turn {
  id: string;
  abort: AbortController;
  text: string;
  started: number;
  firstDeltaAt: number | null;
  audioSeq: number;
  engineInitiated: boolean;
}

export interface ClientInfo {
  userName: string;
  userId: string;
  deviceId: string;
  deviceOS: string;
  locale: string;
  spokenLanguage: string;
}

export class Conversation {
  readonly id = randomUUID();
  readonly callbackToken = randomUUID().replace(/-/g, '') + randomUUID().replace(/-/g, '');
  private engine: Engine | null = null;
  private node: NodeHandle | null = null;
  private history: ChatMessage[] = [];
  private turn: Turn | null = null;
  private speakingUntil = 0;
  private lastUserAt: number;
  private accountedAt: number;
  private startedAt: number;
  private echoFallback = false;
  private ended = false;
  private recorded = false;
  private frameTokens = CONVERSATION_MAX_FRAMES_PER_SECOND * 2;
  private frameRefillAt = performance.now();
  private textTimes: number[] = [];
  private queue: Promise<void> = Promise.resolve();
  /** Moves on each interrupt: a queued turn from before an interrupt starts interrupted. */
  private epoch = 0;
  client!: ClientInfo;

  constructor(
    private readonly runtime: Runtime,
    readonly avatar: ResolvedAvatar,
    private readonly socket: WebSocket,
    readonly ip: string,
  ) {
    const now = runtime.now().getTime();
    this.lastUserAt = now;
    this.accountedAt = now;
    this.startedAt = now;
  }

  get nodeId(): string | null {
    return this.node?.id ?? null;
  }

  send(msg: ServerMessage): void {
    if (this.socket.readyState === 1) this.socket.send(JSON.stringify(msg));
  }

  private usageKeys(): UsageKey[] {
    const a = this.avatar.id;
    return [
      { scope: 'session', key: `${a}:${this.client.deviceId}` },
      { scope: 'ip', key: `${a}:${this.ip}` },
      { scope: 'demo', key: `${a}:${this.ip}` },
    ];
  }

  /** Limits that refuse or degrade the conversation before it starts. */
  async checkLimitsAtStart(): Promise<{ close?: { code: number; errorCode?: number; reason: ByeReason }; echo: boolean }> {
    const db = this.runtime.ctx.db;
    const now = this.runtime.now();
    const l = this.avatar.limits;
    const [sessionUsed, ipUsed, demoUsed] = await Promise.all(this.usageKeys().map((k) => usageToday(db, k, now)));
    if (l.demo !== -1 && demoUsed! >= l.demo) return { close: { code: CLOSE_CODES.demoOver, reason: 'demo' }, echo: false };
    const minutes = await this.runtime.planMinutes(this.avatar.ownerId);
    if (minutes !== null && (await minutesUsedThisMonth(this.runtime.ctx, this.avatar.ownerId)) >= minutes) {
      return { close: { code: CLOSE_CODES.usageLimitExceeded, errorCode: ErrorCode.UsageLimitExceeded, reason: 'usage' }, echo: false };
    }
    const echo = (l.dailyLimitPerSession !== -1 && sessionUsed! >= l.dailyLimitPerSession) || (l.dailyLimitPerIP !== -1 && ipUsed! >= l.dailyLimitPerIP);
    return { echo };
  }

  private host(): EngineHost {
    return {
      beginTurn: (turnId) => {
        const id = turnId ?? randomUUID();
        if (this.turn && !this.turn.engineInitiated) return this.turn.id;
        this.turn = { id, abort: new AbortController(), text: '', started: performance.now(), firstDeltaAt: null, audioSeq: 0, engineInitiated: true };
        return id;
      },
      emit: (turnId, event) => {
        if (!this.turn || this.turn.id !== turnId) {
          if (event.type === 'transcript') return this.send({ type: 'transcript', text: event.text, final: event.final });
          this.host().beginTurn(turnId);
        }
        this.onEvent(this.turn!, event);
      },
      endTurn: (turnId, error) => {
        if (this.turn?.id === turnId && this.turn.engineInitiated) this.finishTurn(this.turn, error, 0);
      },
      userUtterance: (text) => {
        const epoch = this.epoch;
        this.enqueue(() => this.userTurn(text, epoch));
      },
      transcript: (text, final) => this.send({ type: 'transcript', text, final }),
      speaking: () => this.isSpeaking(),
      interrupt: () => this.interrupt(),
    };
  }

  isSpeaking(): boolean {
    return this.turn !== null || this.runtime.now().getTime() < this.speakingUntil;
  }

  /** Opens the engine on a node and says ready. */
  async open(node: NodeHandle, echo: boolean): Promise<void> {
    this.node = node;
    const info = { sessionId: this.id, userId: this.client.userId, userName: this.client.userName, locale: this.client.locale, callbackUrl: this.runtime.callbackUrl(this) };
    let opened: OpenInfo = {};
    if (echo) {
      this.echoFallback = true;
      this.engine = new EchoEngine();
      node.sessions.add(this.id);
    } else {
      const r = await node.openEngine(this.id, this.avatar.engine, this.host(), info);
      this.engine = r.engine;
      opened = r.info;
    }
    const now = this.runtime.now();
    this.startedAt = now.getTime();
    this.accountedAt = this.startedAt;
    this.lastUserAt = this.startedAt;
    await startConversation(this.runtime.ctx.db, {
      id: this.id,
      owner_id: this.avatar.ownerId,
      avatar_id: this.avatar.id,
      avatar_name: this.avatar.name,
      avatar_type: this.avatar.type,
      user_id: this.client.userId,
      user_name: this.client.userName,
      device_id: this.client.deviceId,
      device_os: this.client.deviceOS,
      locale: this.client.locale,
      spoken_language: this.client.spokenLanguage,
      ip_address: this.ip,
      node_id: node.id,
      started_at: now,
      last_seen_at: now,
    });
    this.recorded = true;
    await this.runtime.registry.sync(node, { sessionId: this.id, userId: this.client.userId, used: true });
    this.send({
      type: 'ready',
      sessionId: this.id,
      avatarId: this.avatar.id,
      engine: echo ? 'Echo' : this.avatar.engineName,
      idleTimeout: this.avatar.limits.idleTimeout,
      ...(!echo && (this.avatar.engine.kind === 'pipeline' || this.avatar.engine.kind === 'realtime') ? { audio: true } : {}),
      ...(opened.greeting ? { greeting: opened.greeting } : {}),
    });
    if (opened.connect) this.send({ type: 'connect', ...opened.connect });
    if (echo) this.send({ type: 'notice', reason: 'daily_limit_echo', message: DAILY_LIMIT_NOTICE });
    this.send({ type: 'state', state: 'listening' });
    this.engine?.started?.();
  }

  /** One client frame: rate limits, parsing, dispatch (in order). */
  onFrame(raw: string): void {
    if (this.ended) return;
    const t = performance.now();
    this.frameTokens = Math.min(CONVERSATION_MAX_FRAMES_PER_SECOND * 2, this.frameTokens + ((t - this.frameRefillAt) / 1000) * CONVERSATION_MAX_FRAMES_PER_SECOND);
    this.frameRefillAt = t;
    if (this.frameTokens < 1) return void this.refuse(ErrorCode.RequestFail, CLOSE_CODES.rateLimited, 'Too many messages. Please slow down.');
    this.frameTokens -= 1;
    const parsed = parseClientMessage(raw);
    if (!parsed.ok) return this.send({ type: 'error', code: ErrorCode.InvalidOrMissingParams, message: parsed.error });
    this.dispatch(parsed.message);
  }

  dispatch(msg: ClientMessage): void {
    switch (msg.type) {
      case 'hello':
        return;
      case 'ping':
        return this.send({ type: 'pong' });
      case 'user_text':
      case 'user_transcript': {
        if (msg.type === 'user_transcript' && !msg.final) return;
        const now = this.runtime.now().getTime();
        this.textTimes = this.textTimes.filter((x) => now - x < 60_000);
        if (this.textTimes.length >= CONVERSATION_MAX_TEXTS_PER_MINUTE) {
          return void this.refuse(ErrorCode.RequestFail, CLOSE_CODES.rateLimited, 'Too many messages. Please slow down.');
        }
        this.textTimes.push(now);
        this.lastUserAt = now;
        const text = msg.text.trim();
        if (!text) return;
        // A new message interrupts the reply being given.
        this.interrupt();
        const epoch = this.epoch;
        this.enqueue(() => this.userTurn(text, epoch));
        return;
      }
      case 'user_speech':
        this.lastUserAt = this.runtime.now().getTime();
        this.engine?.speech?.(msg.event, msg.at ?? this.runtime.now().getTime() - this.startedAt);
        return;
      case 'user_audio':
        this.engine?.audio?.(Buffer.from(msg.audio, 'base64'), msg.sampleRate);
        return;
      case 'interrupt':
        this.interrupt();
        return;
      case 'bye':
        void this.end('client', CLOSE_CODES.normal);
        return;
    }
  }

  private enqueue(job: () => Promise<void>): void {
    this.queue = this.queue.then(job).catch((err: unknown) => this.runtime.ctx.log.error({ err }, 'conversation turn failed'));
  }

  interrupt(): void {
    this.epoch++;
    const t = this.turn;
    this.speakingUntil = 0;
    if (!t) return;
    t.abort.abort();
    this.finishTurn(t, undefined, 0, true);
  }

  private setSpeaking(value: boolean): void {
    if (this.node && !this.node.inProcess) (this.node as RemoteNode).speaking(this.id, value);
  }

  private onEvent(turn: Turn, event: EngineEvent): void {
    if (turn.abort.signal.aborted) return;
    switch (event.type) {
      case 'delta':
        if (!event.text) return;
        if (turn.firstDeltaAt === null) {
          turn.firstDeltaAt = performance.now();
          this.send({ type: 'state', state: 'speaking' });
          this.setSpeaking(true);
        }
        turn.text += event.text;
        this.send({ type: 'assistant_delta', turnId: turn.id, text: event.text });
        return;
      case 'audio':
        this.send({
          type: 'audio',
          turnId: turn.id,
          seq: turn.audioSeq++,
          format: event.format,
          ...(event.sampleRate ? { sampleRate: event.sampleRate } : {}),
          audio: event.audio,
          ...(event.visemes ? { visemes: event.visemes } : {}),
          ...(event.words ? { words: event.words } : {}),
        });
        return;
      case 'transcript':
        this.send({ type: 'transcript', text: event.text, final: event.final });
        return;
      case 'tool_call':
        this.runtime.ctx.log.info({ avatarId: this.avatar.id, tool: event.name }, 'function called');
        return;
    }
  }

  private finishTurn(turn: Turn, error: string | undefined, retrievalMs: number, interrupted = false, sources?: { name: string; itemId?: string }[]): void {
    if (this.turn === turn) this.turn = null;
    const engineMs = performance.now() - turn.started;
    if (error && !interrupted) {
      this.runtime.ctx.log.warn({ avatarId: this.avatar.id, error }, 'the engine could not answer');
      this.send({ type: 'notice', reason: 'engine_unavailable', message: ENGINE_FAILED_NOTICE });
    }
    this.send({ type: 'assistant_done', turnId: turn.id, text: turn.text, ...(interrupted ? { interrupted: true } : {}), ...(sources?.length ? { sources } : {}) });
    const words = turn.text.split(/\s+/).filter(Boolean).length;
    this.speakingUntil = interrupted ? 0 : this.runtime.now().getTime() + (words / SPEAKING_WORDS_PER_SECOND) * 1000;
    this.setSpeaking(false);
    if (!this.ended) this.send({ type: 'state', state: 'listening' });
    this.runtime.turns.add({
      conversationId: this.id,
      ownerId: this.avatar.ownerId,
      avatarId: this.avatar.id,
      at: this.runtime.now(),
      firstDeltaMs: turn.firstDeltaAt === null ? null : turn.firstDeltaAt - turn.started,
      engineMs,
      retrievalMs,
      interrupted,
    });
  }

  private async userTurn(text: string, epoch: number): Promise<void> {
    if (this.ended || !this.engine) return;
    const turn: Turn = { id: randomUUID(), abort: new AbortController(), text: '', started: performance.now(), firstDeltaAt: null, audioSeq: 0, engineInitiated: false };
    if (epoch !== this.epoch) {
      // Interrupted before it began.
      this.history.push({ role: 'user', content: text });
      return this.send({ type: 'assistant_done', turnId: turn.id, text: '', interrupted: true });
    }
    this.turn = turn;
    this.send({ type: 'state', state: 'thinking' });
    let context: RetrievedChunk[] = [];
    let retrievalMs = 0;
    let knowledgeSearched = false;
    if (this.avatar.retrieval && !this.echoFallback && this.avatar.retrieval.collectionIds.length) {
      const r0 = performance.now();
      try {
        const r = this.avatar.retrieval;
        context = await this.runtime.retrieve(this.avatar.ownerId, r.collectionIds, text, r.topK, r.threshold);
        knowledgeSearched = true;
      } catch (err) {
        this.runtime.ctx.log.warn({ err: String(err) }, 'knowledge retrieval failed');
      }
      retrievalMs = performance.now() - r0;
    }
    const history = this.avatar.sendHistory ? this.history.slice(-HISTORY_LIMIT) : [];
    let error: string | undefined;
    try {
      for await (const event of this.engine.turn({ turnId: turn.id, text, history, context, knowledgeSearched, signal: turn.abort.signal })) {
        if (turn.abort.signal.aborted || this.ended) break;
        this.onEvent(turn, event);
      }
    } catch (err) {
      if (!turn.abort.signal.aborted) error = err instanceof Error ? err.message : String(err);
      if ((err as Error)?.name === 'NodeLostError') return;
    }
    this.history.push({ role: 'user', content: text });
    if (turn.text) this.history.push({ role: 'assistant', content: turn.text });
    if (this.history.length > HISTORY_LIMIT * 2) this.history = this.history.slice(-HISTORY_LIMIT);
    if (turn.abort.signal.aborted) return;
    const sources = uniqueSources(context);
    this.finishTurn(turn, error, retrievalMs, false, sources);
  }

  /** The REST endpoint (or another engine) pushes a message: the avatar says it now. */
  say(text: string): void {
    const h = this.host();
    this.interrupt();
    const id = h.beginTurn();
    h.emit(id, { type: 'delta', text });
    h.endTurn(id);
  }

  /** The time since it was last accounted (seconds), or null when there is nothing to account.
   *  The runtime's tick accounts every open conversation at once (Runtime.tickAll). */
  account(nowMs: number): { keys: UsageKey[]; seconds: number } | null {
    if (this.ended || !this.recorded) return null;
    const seconds = Math.max(0, (nowMs - this.accountedAt) / 1000);
    this.accountedAt = nowMs;
    return { keys: this.usageKeys(), seconds };
  }

  get ownerId(): string {
    return this.avatar.ownerId;
  }

  /** Applies every running limit once the tick has written and read the usage. */
  async applyLimits(nowMs: number, usedToday: (k: UsageKey) => number, monthlyMinutesUsedUp: boolean): Promise<void> {
    if (this.ended) return;
    const l = this.avatar.limits;
    if (l.idleTimeout > 0 && nowMs - this.lastUserAt >= l.idleTimeout * 1000 && !this.turn) {
      return this.end('idle', CLOSE_CODES.idleTimeout);
    }
    const [sessionUsed, ipUsed, demoUsed] = this.usageKeys().map(usedToday);
    if (l.demo !== -1 && demoUsed! >= l.demo) return this.end('demo', CLOSE_CODES.demoOver);
    if (monthlyMinutesUsedUp) {
      this.send({ type: 'error', code: ErrorCode.UsageLimitExceeded, message: ERROR_MESSAGES[ErrorCode.UsageLimitExceeded] });
      return this.end('usage', CLOSE_CODES.usageLimitExceeded);
    }
    if (!this.echoFallback && ((l.dailyLimitPerSession !== -1 && sessionUsed! >= l.dailyLimitPerSession) || (l.dailyLimitPerIP !== -1 && ipUsed! >= l.dailyLimitPerIP))) {
      await this.switchToEcho();
    }
  }

  private async switchToEcho(): Promise<void> {
    this.echoFallback = true;
    this.interrupt();
    const old = this.engine;
    this.engine = new EchoEngine();
    await old?.close('daily limit').catch(() => undefined);
    this.send({ type: 'notice', reason: 'daily_limit_echo', message: DAILY_LIMIT_NOTICE });
  }

  /** Refuses: an error message with its code, then the close. */
  async refuse(errorCode: number, closeCode: number, message?: string): Promise<void> {
    this.send({ type: 'error', code: errorCode, message: message ?? ERROR_MESSAGES[errorCode as ErrorCode] ?? ERROR_MESSAGES[ErrorCode.Unknown] });
    await this.end(closeCode === CLOSE_CODES.rateLimited ? 'client' : 'server', closeCode);
  }

  /** Ends the conversation once: stops the reply, closes the engine, records the end. */
  async end(reason: ByeReason | 'socket', closeCode: number, closeReason = ''): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    if (this.turn) {
      this.turn.abort.abort();
      this.turn = null;
    }
    if (reason !== 'socket') this.send({ type: 'bye', reason });
    this.send({ type: 'state', state: 'ended' });
    const db = this.runtime.ctx.db;
    const now = this.runtime.now();
    try {
      if (this.recorded) {
        await addUsage(db, this.usageKeys(), Math.max(0, (now.getTime() - this.accountedAt) / 1000), now);
        this.accountedAt = now.getTime();
        await endConversation(db, this.id, now, reason === 'socket' ? 'client' : reason);
      }
    } catch (err) {
      this.runtime.ctx.log.error({ err }, 'recording the end of a conversation failed');
    }
    await this.engine?.close(reason).catch(() => undefined);
    if (this.node) {
      this.node.sessions.delete(this.id);
      await this.runtime.registry.sync(this.node).catch(() => undefined);
    }
    this.runtime.forget(this);
    if (this.socket.readyState === 1 || this.socket.readyState === 0) this.socket.close(closeCode, closeReason);
  }
}

export const DAILY_LIMIT_NOTICE = "Today's conversation time for this avatar is used up: it now repeats what you say.";
export const ENGINE_FAILED_NOTICE = 'The avatar could not answer right now. Please try again in a moment.';

function uniqueSources(context: RetrievedChunk[]): { name: string; itemId?: string }[] {
  const seen = new Set<string>();
  const out: { name: string; itemId?: string }[] = [];
  for (const c of context) {
    if (seen.has(c.source)) continue;
    seen.add(c.source);
    out.push({ name: c.source, ...(c.itemId ? { itemId: c.itemId } : {}) });
  }
  return out;
}
