// One conversation between an end user and an avatar, from `ready` to the end. It wires its
// parts — the client channel (socket protocol), the turn loop (replies) and the accounting
// (usage, record, timings) — to the node its engine runs on, and ends them once. It knows its
// collaborators only through the narrow interfaces of ./ports.ts; the runtime that keeps the
// list of open conversations hears of the end through `onEnded`.
import { randomUUID } from 'node:crypto';
import { CLOSE_CODES, type ByeReason, type ServerMessage } from '@parla/shared/schemas/conversation';
import { ErrorCode, ERROR_MESSAGES } from '@parla/shared/errors';
import type { ResolvedAvatar } from '../avatar';
import { echoEngine, speechOf } from '../engines';
import type { NodeHandle } from '../nodes/node';
import type { NodeRegistry } from '../nodes/registry';
import type { UsageKey } from '../repositories/usage-counters.repository';
import type { Engine, EngineDeps, LlmConfig, OpenInfo } from '../types';
import { Accounting } from './accounting';
import { AvatarEffects } from './avatar-effects';
import type { ClientChannel, ClientHandler } from './client-channel';
import type { ClientInfo } from './client-info';
import type { ConversationStore, LatencySink, Logger, Retriever, TranscriptStore, UsageStore } from './ports';
import type { ReplyFinished } from './reply';
import { TurnLoop, type TurnLoopListener } from './turn-loop';
import { readyVoice } from './voice';

export const DAILY_LIMIT_NOTICE = "Today's conversation time for this avatar is used up: it now repeats what you say.";

export interface ConversationDeps {
  conversations: ConversationStore;
  usage: UsageStore;
  retriever: Retriever;
  latency: LatencySink;
  nodes: Pick<NodeRegistry, 'sync'>;
  log: Logger;
  now(): Date;
  /** The REST endpoint's token for this conversation (any process can check it). */
  callbackToken(id: string): string;
  /** Where the REST endpoint may push messages into this conversation. */
  callbackUrl(id: string, token: string): string;
  /** Issue 13: transcripts, the engines' services (summaries, billing calls) and the product's
   *  own model (summaries for engines without one); where the player downloads a transcript. */
  transcripts?: TranscriptStore;
  engines?: EngineDeps;
  productModel?: LlmConfig | null;
  transcriptUrl?(id: string): string;
  onEnded(c: Conversation): void;
}

export class Conversation implements ClientHandler, TurnLoopListener {
  readonly id = randomUUID();
  readonly accounting: Accounting;
  /** The avatar's settings at work: transcript, wake-up, memory, billing, summary. */
  readonly effects: AvatarEffects;
  private readonly loop: TurnLoop;
  private node: NodeHandle | null = null;
  private ended = false;

  constructor(
    private readonly d: ConversationDeps,
    readonly avatar: ResolvedAvatar,
    readonly client: ClientInfo,
    private readonly channel: ClientChannel,
    readonly ip: string,
  ) {
    // The parts get this conversation's own values and the runtime's shared services (`d`):
    // no closures or copies per conversation.
    this.accounting = new Accounting(this.id, avatar, client, ip, d);
    this.loop = new TurnLoop(avatar, channel, this, d);
    this.effects = new AvatarEffects(this.id, avatar, client, d);
  }

  said(role: 'user' | 'assistant' | 'wake_up', text: string, interrupted: boolean, knowledgeHits?: number | null): void {
    this.effects.transcript.add(role, text, interrupted, knowledgeHits ?? null);
  }

  // ---- TurnLoopListener: what the turn loop reports

  replyFinished(r: ReplyFinished): void {
    this.accounting.replyFinished(r);
  }

  speakingChanged(value: boolean): void {
    this.node?.speaking(this.id, value);
  }

  /** The REST endpoint's token of this conversation. */
  get callbackToken(): string {
    return this.d.callbackToken(this.id);
  }

  get nodeId(): string | null {
    return this.node?.id ?? null;
  }

  get ownerId(): string {
    return this.avatar.ownerId;
  }

  send(msg: ServerMessage): void {
    this.channel.send(msg);
  }

  /** Opens the engine on a node, writes the record and says ready. */
  async open(node: NodeHandle, echo: boolean): Promise<void> {
    this.node = node;
    const info = {
      sessionId: this.id,
      userId: this.client.userId,
      userName: this.client.userName,
      locale: this.client.locale,
      callbackUrl: this.d.callbackUrl(this.id, this.callbackToken),
    };
    let opened: OpenInfo = {};
    if (echo) {
      this.loop.use(this.echoEngine(), true);
      node.conversations.add(this.id);
    } else {
      const engine = await this.effects.engineWithMemory(this.avatar.engine);
      const r = await node.openEngine(this.id, engine, this.loop.host(), info);
      this.loop.use(r.engine, false);
      opened = r.info;
    }
    await this.accounting.recordStart(node.id);
    await this.d.nodes.sync(node, { sessionId: this.id, userId: this.client.userId, used: true });
    const voice = readyVoice(this.avatar.engine, echo && !this.echoSpeaks);
    if (voice.listen === 'server') this.channel.acceptAudio();
    this.send({
      type: 'ready',
      sessionId: this.id,
      avatarId: this.avatar.id,
      engine: echo ? 'Echo' : this.avatar.engineName,
      idleTimeout: this.avatar.limits.idleTimeout,
      ...voice,
      ...(opened.greeting ? { greeting: opened.greeting } : {}),
      ...this.effects.readyFields(),
    });
    if (opened.connect) this.send({ type: 'connect', ...opened.connect });
    if (echo) this.send({ type: 'notice', reason: 'daily_limit_echo', message: DAILY_LIMIT_NOTICE });
    this.send({ type: 'state', state: 'listening' });
    this.loop.started();
    this.wakeUpText = this.effects.wakeUpText(echo, opened);
  }

  private wakeUpText = '';

  /** Whether the echo of the daily limit keeps the avatar's server speech. */
  private get echoSpeaks(): boolean {
    return Boolean(this.d.engines && speechOf(this.avatar.engine));
  }

  /** The echo an avatar falls back to after its daily limit, speaking with its server speech. */
  private echoEngine(): Engine {
    return echoEngine({ config: this.avatar.engine, deps: this.d.engines, host: this.loop.host() });
  }

  /** Once the client is heard: the billing service's first answer, then the wake-up turn. */
  private async begin(): Promise<void> {
    if (this.effects.billed) {
      const refused = await this.effects.billingAtStart();
      if (refused) return this.endForBilling(refused);
    }
    if (this.wakeUpText && !this.ended) this.loop.wakeUp(this.wakeUpText);
  }

  /** The billing service refused (or could not be reached): the user is told why, the record keeps the reason. */
  private async endForBilling(e: { message: string; detail: string }): Promise<void> {
    this.send({ type: 'error', code: ErrorCode.AuthenticationFailed, message: e.message });
    await this.end('billing', CLOSE_CODES.authenticationFailed, '', e.detail);
  }

  /** Listens to the client; a first frame that was not a hello is handled now. */
  listen(pending: string | null): void {
    if (!this.channel.attach(this)) return void this.end('socket', CLOSE_CODES.normal);
    this.begin().catch((err: unknown) => this.d.log.warn({ err: String(err) }, 'starting the conversation failed'));
    if (pending) this.channel.onFrame(pending);
  }

  // ---- ClientHandler: one call per client message (client-channel.ts)

  userActive(): void {
    this.accounting.userActive();
  }

  userText(text: string): void {
    this.loop.userText(text);
  }

  speech(event: 'start' | 'end', atMs: number | undefined): void {
    this.loop.speech(event, atMs ?? this.accounting.sinceStart());
  }

  audio(pcm: Buffer, sampleRate: number): void {
    this.loop.audio(pcm, sampleRate);
  }

  interrupt(): void {
    this.loop.interrupt();
  }

  isSpeaking(): boolean {
    return this.loop.isSpeaking();
  }

  /** The REST endpoint pushes a message: the avatar says it now. */
  say(text: string): void {
    this.loop.say(text);
  }

  /** The runtime's tick: the seconds since last accounted (null when ended). */
  account(nowMs: number): { keys: UsageKey[]; seconds: number } | null {
    return this.ended ? null : this.accounting.take(nowMs);
  }

  /** Applies every running limit once the tick has written and read the usage. */
  async applyLimits(nowMs: number, usedToday: (k: UsageKey) => number, monthlyMinutesUsedUp: boolean): Promise<void> {
    if (this.ended) return;
    const billing = await this.effects.billingAtTick(nowMs);
    if (billing) return this.endForBilling(billing);
    const action = this.accounting.atTick(nowMs, usedToday, monthlyMinutesUsedUp, { replying: this.loop.replying, echo: this.loop.echo });
    if (!action) return;
    if (action === 'echo') {
      await this.loop.switchToEcho(this.echoEngine());
      return this.send({ type: 'notice', reason: 'daily_limit_echo', message: DAILY_LIMIT_NOTICE });
    }
    if (action.end === 'idle') return this.end('idle', CLOSE_CODES.idleTimeout);
    if (action.end === 'demo') return this.end('demo', CLOSE_CODES.demoOver);
    this.send({ type: 'error', code: ErrorCode.UsageLimitExceeded, message: ERROR_MESSAGES[ErrorCode.UsageLimitExceeded] });
    return this.end('usage', CLOSE_CODES.usageLimitExceeded);
  }

  /** Refuses the conversation from now on (an administrator suspended its owner): the error,
   *  then the end with its close code. */
  async refuse(errorCode: ErrorCode, closeCode: number, message?: string): Promise<void> {
    this.send({ type: 'error', code: errorCode, message: message ?? ERROR_MESSAGES[errorCode] });
    await this.end('server', closeCode);
  }

  /** Ends the conversation once: stops the reply, records the end, closes the engine. */
  async end(reason: ByeReason | 'socket', closeCode: number, closeReason = '', detail?: string): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.channel.stop();
    this.loop.stop();
    if (reason !== 'socket') this.send({ type: 'bye', reason });
    this.send({ type: 'state', state: 'ended' });
    try {
      await this.accounting.recordEnd(reason === 'socket' ? 'client' : reason, detail);
    } catch (err) {
      this.d.log.error({ err }, 'recording the end of a conversation failed');
    }
    await this.loop.close(reason);
    if (this.node) {
      this.node.conversations.delete(this.id);
      await this.d.nodes.sync(this.node).catch(() => undefined);
    }
    this.d.onEnded(this);
    // The transcript is whole in the database once the client sees the close (its messages were
    // batched with other conversations').
    await this.effects.transcript.flushed();
    this.channel.close(closeCode, closeReason);
    this.effects.ended();
  }
}
