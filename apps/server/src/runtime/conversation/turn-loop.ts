// The turn loop of one conversation: user messages queue up as replies, one at a time; a new
// message or an interrupt cuts the reply in progress (and replies queued before it). It calls
// the engine with the history and the knowledge retrieved for the message, forwards what the
// engine yields to the client sink, and reports each finished reply to its listener. It never
// sees the socket, the database or the runtime.
import { NodeLostError } from '../nodes/node';
import { echoEngine, SpeechFailed } from '../engines';
import type { ChatMessage, Engine, EngineHost } from '../types';
import type { ClientSink, TurnLoopListener, TurnLoopServices } from './ports';
import { historyWindow, HISTORY_MAX_MESSAGES } from './history-window';
import { Reply, uniqueSources } from './reply';
import { ReplyOutput, type ReplyEnd } from './reply-output';
import { RECOGNITION_FAILED_NOTICE } from './notices';
import { NO_CONTEXT, retrievalOf, retrieve, type TurnAvatar } from './turn-knowledge';

export type { TurnAvatar, TurnLoopListener, TurnLoopServices };

export class TurnLoop {
  private engine: Engine | null = null;
  private history: ChatMessage[] = [];
  private reply: Reply | null = null;
  private readonly out: ReplyOutput;
  private queue: Promise<void> = Promise.resolve();
  /** Moves on each interrupt: a reply queued before an interrupt starts interrupted. */
  private epoch = 0;
  private stopped = false;
  /** The daily allowance is used up: the engine repeats what the user says. */
  echo = false;

  constructor(
    private readonly avatar: TurnAvatar,
    private readonly sink: ClientSink,
    private readonly listener: TurnLoopListener,
    private readonly services: TurnLoopServices,
  ) {
    this.out = new ReplyOutput(avatar, sink, listener, services, () => this.engine?.kind);
  }

  use(engine: Engine, echo: boolean): void {
    this.engine = engine;
    this.echo = echo;
  }

  /** The client has been told the conversation is ready: the engine's output may flow. */
  started(): void {
    this.engine?.started?.();
  }

  get replying(): boolean {
    return this.reply !== null;
  }

  isSpeaking(): boolean {
    return this.out.speaking.isSpeaking(this.reply !== null);
  }

  /** How an engine speaks without being asked: its output joins this loop. */
  host(): EngineHost {
    const host: EngineHost = {
      beginTurn: (turnId) => {
        if (this.reply && !this.reply.engineInitiated) return this.reply.id;
        this.reply = new Reply(turnId, true);
        return this.reply.id;
      },
      emit: (turnId, event) => {
        if (!this.reply || this.reply.id !== turnId) {
          if (event.type === 'transcript') return this.out.transcript(event.text, event.final);
          host.beginTurn(turnId);
        }
        this.out.event(this.reply!, event);
      },
      endTurn: (turnId, error) => {
        if (this.reply?.id === turnId && this.reply.engineInitiated) this.finish(this.reply, { error, retrievalMs: 0 });
      },
      userUtterance: (text) => this.enqueue(text),
      transcript: (text, final) => this.out.transcript(text, final),
      speaking: () => this.isSpeaking(),
      interrupt: () => this.interrupt(true),
      recognitionFailed: () => this.sink.send({ type: 'notice', reason: 'engine_unavailable', message: RECOGNITION_FAILED_NOTICE }),
    };
    return host;
  }

  /** The wake-up message: the brain's first, hidden turn; its answer is the greeting. */
  wakeUp(text: string): void {
    this.enqueue(text, true);
  }

  /** A user message: it cuts the reply being given and queues its own. */
  userText(text: string): void {
    this.interrupt();
    this.enqueue(text);
  }

  /** The REST endpoint (or another engine) pushes a message: the avatar says it now, with its
   *  server speech when it has one (lips, barge-in: like any reply). */
  say(text: string): void {
    const h = this.host();
    this.interrupt();
    if (this.engine?.say) return void this.sayAloud(this.engine.say.bind(this.engine), text);
    const id = h.beginTurn();
    h.emit(id, { type: 'delta', text });
    h.endTurn(id);
  }

  private async sayAloud(say: NonNullable<Engine['say']>, text: string): Promise<void> {
    const reply = new Reply(undefined, true);
    this.reply = reply;
    let error: string | undefined;
    try {
      for await (const event of say(text, reply.signal)) {
        if (reply.cut || this.stopped) break;
        this.out.event(reply, event);
      }
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    // The text was given: only its voice can have failed.
    if (!reply.cut && this.reply === reply) this.finish(reply, { error, speechFailed: Boolean(error), retrievalMs: 0 });
  }

  speech(event: 'start' | 'end', atMs: number): void {
    this.engine?.speech?.(event, atMs);
  }

  audio(pcm: Buffer, sampleRate: number): void {
    this.engine?.audio?.(pcm, sampleRate);
  }

  /** Cuts the reply (a user message, the player's stop, or `bargeIn`: speech over the avatar
   *  that the engine decided interrupts it). */
  interrupt(bargeIn = false): void {
    this.epoch++;
    const r = this.reply;
    // Barge-in on a reply that is complete but still playing stops its audio too.
    this.out.cut(bargeIn && !r);
    if (!r) return;
    r.abort.abort();
    this.finish(r, { retrievalMs: 0, interrupted: true });
  }

  /** The daily allowance ran out mid-conversation: the engine becomes an echo (with the
   *  avatar's server speech when the conversation gives one). */
  async switchToEcho(echo: Engine = echoEngine()): Promise<void> {
    this.echo = true;
    this.interrupt();
    const old = this.engine;
    this.engine = echo;
    await old?.close('daily limit').catch(() => undefined);
  }

  /** No more replies: the current one is cut without a word to the client. */
  stop(): void {
    this.stopped = true;
    this.out.speaking.stop();
    if (this.reply) {
      this.reply.abort.abort();
      this.reply = null;
    }
  }

  async close(reason: string): Promise<void> {
    await this.engine?.close(reason).catch(() => undefined);
  }

  private enqueue(text: string, hidden = false): void {
    const epoch = this.epoch;
    this.queue = this.queue
      .then(() => this.userTurn(text, epoch, hidden))
      .catch((err: unknown) => this.services.log.error({ err }, 'conversation turn failed'));
  }

  private finish(reply: Reply, end: Omit<ReplyEnd, 'stopped'>): void {
    if (this.reply === reply) this.reply = null;
    this.out.finish(reply, { ...end, stopped: this.stopped });
  }

  private async userTurn(text: string, epoch: number, hidden = false): Promise<void> {
    if (this.stopped || !this.engine) return;
    const reply = new Reply();
    const at = this.services.now().toISOString();
    this.listener.said?.(hidden ? 'wake_up' : 'user', text, false);
    if (epoch !== this.epoch) {
      // Interrupted before it began.
      this.history.push({ role: 'user', content: text, at });
      return this.sink.send({ type: 'assistant_done', turnId: reply.id, text: '', interrupted: true });
    }
    this.reply = reply;
    this.sink.send({ type: 'state', state: 'thinking' });
    const retrieval = retrievalOf(this.avatar, this.echo);
    // No await when there is nothing to retrieve: the reply starts in the same tick.
    const { context, retrievalMs, searched } = retrieval ? await retrieve(this.avatar, retrieval, text, this.services) : NO_CONTEXT;
    // Bounded (history-window.ts); which engines pass it on is their configuration's choice.
    const history = historyWindow(this.history);
    let error: string | undefined;
    let speechFailed = false;
    try {
      for await (const event of this.engine.turn({
        turnId: reply.id,
        text,
        history,
        context,
        knowledgeSearched: searched,
        signal: reply.signal,
      })) {
        if (reply.cut || this.stopped) break;
        this.out.event(reply, event);
      }
    } catch (err) {
      if (!reply.cut) error = err instanceof Error ? err.message : String(err);
      speechFailed = err instanceof SpeechFailed;
      if (err instanceof NodeLostError) return;
    }
    this.history.push({ role: 'user', content: text, at });
    if (reply.text) this.history.push({ role: 'assistant', content: reply.text, at: this.services.now().toISOString() });
    if (this.history.length > HISTORY_MAX_MESSAGES * 2) this.history = this.history.slice(-HISTORY_MAX_MESSAGES);
    if (reply.cut) return;
    const knowledgeHits = searched ? context.length : null;
    this.finish(reply, { error, speechFailed, retrievalMs, sources: uniqueSources(context), knowledgeHits });
  }
}
