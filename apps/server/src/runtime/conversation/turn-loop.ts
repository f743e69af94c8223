// The turn loop of one conversation: user messages queue up as replies, one at a time; a new
// message or an interrupt cuts the reply in progress (and replies queued before it). It calls
// the engine with the history and the knowledge retrieved for the message, forwards what the
// engine yields to the client sink, and reports each finished reply to its listener. It never
// sees the socket, the database or the runtime.
import { performance } from 'node:perf_hooks';
import { NodeLostError } from '../nodes/node';
import type { ResolvedAvatar } from '../avatar';
import { echoEngine } from '../engines';
import type { ChatMessage, Engine, EngineEvent, EngineHost, RetrievedChunk } from '../types';
import { AudioOut } from './audio-out';
import type { ClientSink, Logger, Retriever } from './ports';
import { historyWindow, HISTORY_MAX_MESSAGES } from './history-window';
import { Reply, uniqueSources, type ReplyFinished } from './reply';
/** Words per second used to estimate how long the player speaks a reply. */
const SPEAKING_WORDS_PER_SECOND = 3;

const NO_CONTEXT: Retrieved = { context: [], retrievalMs: 0, searched: false };

type Retrieved = { context: RetrievedChunk[]; retrievalMs: number; searched: boolean };

export const ENGINE_FAILED_NOTICE = 'The avatar could not answer right now. Please try again in a moment.';
/** The answer came but its voice could not be made (the TTS failed or hung). */
export const SPEECH_FAILED_NOTICE = "The avatar's voice is not available right now; its answer is shown as text.";
/** The STT failed or hung on what the user said. */
export const RECOGNITION_FAILED_NOTICE = 'The avatar could not hear that. Please say it again or type it.';

export interface TurnLoopListener {
  replyFinished(r: ReplyFinished): void;
  /** The avatar started or stopped speaking (a remote node decides barge-in with it). */
  speakingChanged(value: boolean): void;
  /** A message of the transcript: the user's, the avatar's, or the hidden wake-up turn. */
  said?(role: 'user' | 'assistant' | 'wake_up', text: string, interrupted: boolean): void;
}

export type TurnAvatar = Pick<ResolvedAvatar, 'id' | 'ownerId' | 'retrieval' | 'settings'>;

/** What every conversation's turn loop shares (one object per runtime: thousands of idle
 *  conversations stay small). */
export interface TurnLoopServices {
  retriever: Retriever;
  log: Logger;
  now(): Date;
}

export class TurnLoop {
  private engine: Engine | null = null;
  private history: ChatMessage[] = [];
  private reply: Reply | null = null;
  private speakingUntil = 0;
  private readonly audioOut: AudioOut;
  /** The text of the turn whose audio was sent last (said again when it is cut while playing). */
  private lastSpokenText = '';
  private queue: Promise<void> = Promise.resolve();
  /** Moves on each interrupt: a reply queued before an interrupt starts interrupted. */
  private epoch = 0;
  private stopped = false;
  /** Tells the listener the avatar has fallen silent once the audio sent has played. */
  private quietTimer: NodeJS.Timeout | null = null;
  /** The daily allowance is used up: the engine repeats what the user says. */
  echo = false;

  constructor(
    private readonly avatar: TurnAvatar,
    private readonly sink: ClientSink,
    private readonly listener: TurnLoopListener,
    private readonly services: TurnLoopServices,
  ) {
    this.audioOut = new AudioOut(sink, () => services.now().getTime());
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
    return this.reply !== null || this.services.now().getTime() < this.speakingUntil || this.audioOut.playing();
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
          if (event.type === 'transcript') return this.transcript(event.text, event.final);
          host.beginTurn(turnId);
        }
        this.onEvent(this.reply!, event);
      },
      endTurn: (turnId, error) => {
        if (this.reply?.id === turnId && this.reply.engineInitiated) this.finish(this.reply, error, 0);
      },
      userUtterance: (text) => this.enqueue(text),
      transcript: (text, final) => this.transcript(text, final),
      speaking: () => this.isSpeaking(),
      interrupt: () => this.interrupt(true),
      recognitionFailed: () => this.sink.send({ type: 'notice', reason: 'engine_unavailable', message: RECOGNITION_FAILED_NOTICE }),
    };
    return host;
  }

  /** What the user said, as the engine heard it: interim texts only with Transcription
   *  Streaming (an avatar without settings keeps sending them); a realtime engine's final
   *  transcript is the user's message in the transcript (other engines' turns record it). */
  private transcript(text: string, final: boolean): void {
    if (!final && this.avatar.settings && !this.avatar.settings.transcriptionStreaming) return;
    if (final && this.engine?.kind === 'realtime') this.listener.said?.('user', text, false);
    this.sink.send({ type: 'transcript', text, final });
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
        this.onEvent(reply, event);
      }
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    if (!reply.cut && this.reply === reply) this.finish(reply, error, 0);
  }

  speech(event: 'start' | 'end', atMs: number): void {
    this.engine?.speech?.(event, atMs);
  }

  audio(pcm: Buffer, sampleRate: number): void {
    this.engine?.audio?.(pcm, sampleRate);
  }

  /** The avatar speaks until the player has played what was sent (decision 611): a remote
   *  node's listener decides barge-in with what it is told, so it hears of the silence then. */
  private quietWhenPlayed(): void {
    this.clearQuietTimer();
    const left = this.audioOut.playingUntil - this.services.now().getTime();
    if (left <= 0) return this.listener.speakingChanged(false);
    this.quietTimer = setTimeout(() => {
      this.quietTimer = null;
      this.listener.speakingChanged(false);
    }, left);
    this.quietTimer.unref();
  }

  private clearQuietTimer(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = null;
  }

  /** Cuts the reply (a user message, the player's stop, or `bargeIn`: speech over the avatar
   *  that the engine decided interrupts it). */
  interrupt(bargeIn = false): void {
    this.epoch++;
    const r = this.reply;
    this.speakingUntil = 0;
    if (!r) {
      // Barge-in on a reply that is complete but still playing: the player stops that turn's
      // audio when told it was interrupted (decision 611).
      const turnId = this.audioOut.lastTurnId;
      if (bargeIn && turnId && this.audioOut.playing()) this.sink.send({ type: 'assistant_done', turnId, text: this.lastSpokenText, interrupted: true });
      this.audioOut.stop();
      if (this.quietTimer) this.quietWhenPlayed();
      return;
    }
    this.audioOut.stop();
    r.abort.abort();
    this.finish(r, undefined, 0, true);
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
    this.clearQuietTimer();
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
    this.queue = this.queue.then(() => this.userTurn(text, epoch, hidden)).catch((err: unknown) => this.services.log.error({ err }, 'conversation turn failed'));
  }

  private onEvent(reply: Reply, event: EngineEvent): void {
    if (reply.cut) return;
    const { sink } = this;
    switch (event.type) {
      case 'delta':
        if (!event.text) return;
        if (reply.firstDeltaAt === null) {
          reply.firstDeltaAt = performance.now();
          sink.send({ type: 'state', state: 'speaking' });
          this.clearQuietTimer();
          this.listener.speakingChanged(true);
        }
        reply.text += event.text;
        return sink.send({ type: 'assistant_delta', turnId: reply.id, text: event.text });
      case 'audio':
        reply.audioSeq++;
        return this.audioOut.send(reply.id, event);
      case 'transcript':
        return this.transcript(event.text, event.final);
      case 'tool_call':
        return this.services.log.info({ avatarId: this.avatar.id, tool: event.name }, 'function called');
    }
  }

  private finish(reply: Reply, error: string | undefined, retrievalMs: number, interrupted = false, sources?: { name: string; itemId?: string }[]): void {
    if (this.reply === reply) this.reply = null;
    const engineMs = performance.now() - reply.started;
    if (error && !interrupted) {
      this.services.log.warn({ avatarId: this.avatar.id, error }, 'the engine could not answer');
      this.sink.send({ type: 'notice', reason: 'engine_unavailable', message: reply.text ? SPEECH_FAILED_NOTICE : ENGINE_FAILED_NOTICE });
    }
    if (!interrupted) this.audioOut.end(reply.id);
    if (reply.audioSeq > 0) this.lastSpokenText = reply.text;
    this.sink.send({ type: 'assistant_done', turnId: reply.id, text: reply.text, ...(interrupted ? { interrupted: true } : {}), ...(sources?.length ? { sources } : {}) });
    if (reply.text) this.listener.said?.('assistant', reply.text, interrupted);
    // Without server audio the player speaks the text itself: its length is estimated.
    this.speakingUntil = interrupted || reply.audioSeq > 0 ? 0 : this.services.now().getTime() + (reply.words / SPEAKING_WORDS_PER_SECOND) * 1000;
    this.quietWhenPlayed();
    if (!this.stopped) this.sink.send({ type: 'state', state: 'listening' });
    this.listener.replyFinished({ firstDeltaMs: reply.firstDeltaMs, engineMs, retrievalMs, interrupted, ...(error && !interrupted ? { failed: true } : {}) });
  }

  /** Knowledge for this message (LLM engines with collections; not while echoing). */
  private get retrieval(): NonNullable<TurnAvatar['retrieval']> | null {
    const r = this.avatar.retrieval;
    return r && !this.echo && r.collectionIds.length ? r : null;
  }

  /** searched = the knowledge base answered (an empty context then means nothing was relevant). */
  private async retrieve(text: string, r: NonNullable<TurnAvatar['retrieval']>): Promise<Retrieved> {
    const r0 = performance.now();
    let context: RetrievedChunk[] = [];
    let searched = false;
    try {
      context = await this.services.retriever.retrieve(this.avatar.ownerId, r.collectionIds, text, r.topK, r.threshold);
      searched = true;
    } catch (err) {
      this.services.log.warn({ err: String(err) }, 'knowledge retrieval failed');
    }
    return { context, retrievalMs: performance.now() - r0, searched };
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
    const retrieval = this.retrieval;
    // No await when there is nothing to retrieve: the reply starts in the same tick.
    const { context, retrievalMs, searched } = retrieval ? await this.retrieve(text, retrieval) : NO_CONTEXT;
    // Bounded (history-window.ts); which engines pass it on is their configuration's choice.
    const history = historyWindow(this.history);
    let error: string | undefined;
    try {
      for await (const event of this.engine.turn({ turnId: reply.id, text, history, context, knowledgeSearched: searched, signal: reply.signal })) {
        if (reply.cut || this.stopped) break;
        this.onEvent(reply, event);
      }
    } catch (err) {
      if (!reply.cut) error = err instanceof Error ? err.message : String(err);
      if (err instanceof NodeLostError) return;
    }
    this.history.push({ role: 'user', content: text, at });
    if (reply.text) this.history.push({ role: 'assistant', content: reply.text, at: this.services.now().toISOString() });
    if (this.history.length > HISTORY_MAX_MESSAGES * 2) this.history = this.history.slice(-HISTORY_MAX_MESSAGES);
    if (reply.cut) return;
    this.finish(reply, error, retrievalMs, false, uniqueSources(context));
  }
}
