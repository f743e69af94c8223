// What a reply sends out: its engine's events to the client (text, audio, transcripts) and, when
// it ends, the client's assistant_done and state, the transcript's record and the reply's
// timings. The turn loop decides which reply is current and when it ends; this part speaks for
// the reply it is given and keeps what the avatar is saying aloud (its audio and speaking state).
import { performance } from 'node:perf_hooks';
import type { EngineEvent } from '../types';
import { AudioOut } from './audio-out';
import { ANSWER_CUT_NOTICE, ENGINE_FAILED_NOTICE, SPEECH_FAILED_NOTICE } from './notices';
import type { ClientSink, TurnLoopListener, TurnLoopServices } from './ports';
import type { Reply } from './reply';
import { SpeakingState } from './speaking-state';
import type { TurnAvatar } from './turn-knowledge';

/** The longest a word of a reply waits for the next ones before it is sent. */
export const DELTA_FRAME_MS = 100;

export interface ReplyEnd {
  error?: string;
  /** The error was the voice's (the TTS), not the answer's. */
  speechFailed?: boolean;
  retrievalMs: number;
  interrupted?: boolean;
  sources?: { name: string; itemId?: string }[];
  /** Passages the answer was given with (0: the knowledge base was searched, nothing relevant);
   *  null or absent: it was not searched. Recorded with the answer (knowledge gaps, issue 38). */
  knowledgeHits?: number | null;
  /** The conversation is stopping: no 'listening' state follows. */
  stopped: boolean;
}

export class ReplyOutput {
  readonly audioOut: AudioOut;
  readonly speaking: SpeakingState;
  /** The text of the turn whose audio was sent last (said again when it is cut while playing). */
  private lastSpokenText = '';

  constructor(
    private readonly avatar: TurnAvatar,
    private readonly sink: ClientSink,
    private readonly listener: TurnLoopListener,
    private readonly services: TurnLoopServices,
    /** The kind of the conversation's engine now (a realtime engine's final transcript is the user's message). */
    private readonly engineKind: () => string | undefined,
  ) {
    // No named closures here: the server runs through tsx, whose esbuild keeps function names
    // (`__name`), which turns each named closure into a dictionary-mode object of ~300 bytes,
    // per open conversation (issue 37: what an idle conversation holds).
    this.audioOut = new AudioOut(sink, services);
    this.speaking = new SpeakingState(this.audioOut, services, listener);
  }

  /** What the user said, as the engine heard it: interim texts only with Transcription
   *  Streaming (an avatar without settings keeps sending them); a realtime engine's final
   *  transcript is the user's message in the transcript (other engines' turns record it). */
  transcript(text: string, final: boolean): void {
    if (!final && this.avatar.settings && !this.avatar.settings.transcriptionStreaming) return;
    if (final && this.engineKind() === 'realtime') this.listener.said?.('user', text, false);
    this.sink.send({ type: 'transcript', text, final });
  }

  event(reply: Reply, event: EngineEvent): void {
    if (reply.cut) return;
    const { sink } = this;
    switch (event.type) {
      case 'delta':
        if (!event.text) return;
        reply.text += event.text;
        if (reply.firstDeltaAt === null) {
          reply.firstDeltaAt = performance.now();
          sink.send({ type: 'state', state: 'speaking' });
          this.speaking.started();
          return sink.send({ type: 'assistant_delta', turnId: reply.id, text: event.text });
        }
        // The first words go out at once (time to first token); the next ones together, at
        // most every DELTA_FRAME_MS: a frame per word cost more server CPU than the turn's own
        // work (issue 37). The player appends deltas, so captions and speech read the same text.
        reply.unsent += event.text;
        if (!reply.deltaTimer) reply.deltaTimer = setTimeout(() => this.sendUnsent(reply), DELTA_FRAME_MS);
        return;
      case 'audio':
        reply.audioSeq++;
        // The text before the audio that speaks it (captions follow the audio).
        this.sendUnsent(reply);
        return this.audioOut.send(reply.id, event);
      case 'transcript':
        return this.transcript(event.text, event.final);
      case 'tool_call':
        return this.services.log.info({ avatarId: this.avatar.id, tool: event.name }, 'function called');
    }
  }

  /** Sends the reply's words not sent yet; a reply cut since (the conversation stopped) sends
   *  them only at its finish (`finishing`). */
  sendUnsent(reply: Reply, finishing = false): void {
    if (reply.deltaTimer) clearTimeout(reply.deltaTimer);
    reply.deltaTimer = null;
    if (!reply.unsent) return;
    const text = reply.unsent;
    reply.unsent = '';
    if (!reply.cut || finishing) this.sink.send({ type: 'assistant_delta', turnId: reply.id, text });
  }

  /** Stops what is being said: a reply cut, or (with `bargeIn`) a complete reply whose audio
   *  still plays — the player stops that turn's audio when told it was interrupted (decision 611). */
  cut(bargeIn: boolean): void {
    const turnId = this.audioOut.lastTurnId;
    if (bargeIn && turnId && this.audioOut.playing())
      this.sink.send({ type: 'assistant_done', turnId, text: this.lastSpokenText, interrupted: true });
    this.audioOut.stop();
    this.speaking.cut();
  }

  finish(reply: Reply, end: ReplyEnd): void {
    const { error, interrupted = false, sources } = end;
    const engineMs = performance.now() - reply.started;
    // Every word of the reply reaches the client before its end (an interrupted one included).
    this.sendUnsent(reply, true);
    const failed = Boolean(error) && !interrupted;
    // An answer that failed partway is shown, and recorded, as cut: its end never came.
    const cut = interrupted || (failed && !end.speechFailed && reply.text !== '');
    if (failed) {
      this.services.log.warn({ avatarId: this.avatar.id, error }, 'the engine could not answer');
      // The notice says what failed (decision 614): the voice, the answer partway, or the answer.
      const message = end.speechFailed ? SPEECH_FAILED_NOTICE : reply.text ? ANSWER_CUT_NOTICE : ENGINE_FAILED_NOTICE;
      this.sink.send({ type: 'notice', reason: 'engine_unavailable', message });
    }
    if (!interrupted) this.audioOut.end(reply.id);
    if (reply.audioSeq > 0) this.lastSpokenText = reply.text;
    this.sink.send({
      type: 'assistant_done',
      turnId: reply.id,
      text: reply.text,
      ...(cut ? { interrupted: true } : {}),
      ...(sources?.length ? { sources } : {}),
    });
    if (reply.text) this.listener.said?.('assistant', reply.text, cut, end.knowledgeHits ?? null);
    this.speaking.finished(cut, reply.words, reply.audioSeq > 0);
    if (!end.stopped) this.sink.send({ type: 'state', state: 'listening' });
    this.listener.replyFinished({
      firstDeltaMs: reply.firstDeltaMs,
      engineMs,
      retrievalMs: end.retrievalMs,
      interrupted,
      ...(failed ? { failed: true } : {}),
    });
  }
}
