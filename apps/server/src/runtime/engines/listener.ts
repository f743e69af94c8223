// The listening half of server speech (decisions 611, 612). The player streams microphone audio
// and reports voice activity (its VAD); the turn settings decide when the user's turn ends
// (min/max endpointing delay, min speech duration) and when user speech interrupts the avatar:
// it must last min_interruption_duration and, when set, reach min_interruption_words of the
// STT's interim words; allow_interruptions false lets the avatar finish. The utterance goes to
// the STT (Deepgram through its streaming socket, the others as one request) at the VAD's end,
// while the endpointing delay runs, so the recogniser's time hides in that wait; speech within
// the delay discards that result and the whole utterance is recognised again at its next end.
import type { EngineDeps, EngineHost, SttConfig, TurnSettings } from '../types';
import { DeepgramStream } from './deepgram-stream';
import { transcribe } from './speech';

const BYTES_PER_SECOND = (rate: number) => rate * 2;
const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

export class UtteranceListener {
  private sampleRate = 16000;
  /** Audio before speech started (prefix padding) and the utterance being spoken. */
  private preroll: Buffer[] = [];
  private utterance: Buffer[] = [];
  private utteranceBytes = 0;
  private speaking = false;
  private speechStartedAt = 0;
  private firstEndAt: number | null = null;
  private endTimer: NodeJS.Timeout | null = null;
  /** Barge-in: the user has spoken over the avatar for min_interruption_duration. */
  private bargeTimer: NodeJS.Timeout | null = null;
  private bargeLongEnough = false;
  private interimWords = 0;
  private closed = false;
  /** Deepgram streams while the user speaks; null when not used or not reachable. */
  private stream: DeepgramStream | null = null;
  private streamFailed = false;
  /** The stream's connection while it is being made. */
  private opening: Promise<void> = Promise.resolve();
  /** Recognition started at the VAD's end, awaited when the endpointing delay is over. */
  private recognition: Promise<string> | null = null;
  /** Deepgram: the text finalised before the user went on within the delay. */
  private heardBefore: Promise<string> | null = null;

  constructor(
    private readonly stt: SttConfig,
    private readonly turn: TurnSettings,
    private readonly deps: EngineDeps,
    private readonly host: EngineHost,
  ) {}

  audio(pcm: Buffer, sampleRate: number): void {
    this.sampleRate = sampleRate;
    if (this.speaking || this.endTimer) {
      this.stream?.audio(pcm);
      const cap = BYTES_PER_SECOND(sampleRate) * this.turn.maxBufferedSpeech;
      if (this.utteranceBytes + pcm.length <= cap) {
        this.utterance.push(pcm);
        this.utteranceBytes += pcm.length;
      }
      return;
    }
    this.preroll.push(pcm);
    const keep = BYTES_PER_SECOND(sampleRate) * this.turn.prefixPaddingDuration;
    let size = this.preroll.reduce((n, b) => n + b.length, 0);
    while (size > keep && this.preroll.length > 1) size -= this.preroll.shift()!.length;
  }

  speech(event: 'start' | 'end', atMs: number): void {
    if (event === 'start') return this.started(atMs);
    this.speaking = false;
    this.stopBarge();
    if ((atMs - this.speechStartedAt) / 1000 < this.turn.minSpeechDuration && this.firstEndAt === null) {
      this.utterance = [];
      this.utteranceBytes = 0;
      return;
    }
    this.firstEndAt ??= atMs;
    this.recognition = this.recognise();
    const waited = (atMs - this.firstEndAt) / 1000;
    const delay = Math.max(0, Math.min(this.turn.minEndpointingDelay, this.turn.maxEndpointingDelay - waited));
    this.endTimer = setTimeout(() => {
      this.endTimer = null;
      void this.finishUtterance(atMs - this.speechStartedAt);
    }, delay * 1000);
  }

  private started(atMs: number): void {
    if (this.endTimer) {
      // The user went on within the endpointing delay: same turn, recognised again at its end
      // (Deepgram's stream keeps what it finalised; the other STTs hear the whole utterance).
      clearTimeout(this.endTimer);
      this.endTimer = null;
      if (this.stream?.open_) this.heardBefore = this.recognition;
      this.recognition = null;
    } else {
      this.utterance = [...this.preroll];
      this.utteranceBytes = this.utterance.reduce((n, b) => n + b.length, 0);
      this.preroll = [];
      this.speechStartedAt = atMs;
      this.firstEndAt = null;
      this.opening = this.startStream();
    }
    this.speaking = true;
    this.interimWords = 0;
    if (this.turn.allowInterruptions && this.host.speaking()) {
      this.bargeLongEnough = false;
      this.bargeTimer = setTimeout(() => {
        this.bargeTimer = null;
        this.bargeLongEnough = true;
        this.tryBarge();
      }, this.turn.minInterruptionDuration * 1000);
    }
  }

  /** Interrupts the avatar once the user has spoken over it long enough (and enough words). */
  private tryBarge(): void {
    if (!this.bargeLongEnough || !this.speaking || !this.host.speaking()) return;
    if (this.turn.minInterruptionWords > 0 && this.interimWords < this.turn.minInterruptionWords) return;
    this.bargeLongEnough = false;
    this.host.interrupt();
  }

  private stopBarge(): void {
    if (this.bargeTimer) clearTimeout(this.bargeTimer);
    this.bargeTimer = null;
    this.bargeLongEnough = false;
  }

  private interim(text: string): void {
    this.interimWords = wordCount(text);
    this.host.transcript(text, false);
    this.tryBarge();
  }

  /** Deepgram: open the stream (once) and send what this utterance holds so far (prefix padding
   *  and whatever came while connecting); later audio goes straight to the stream. */
  private async startStream(): Promise<void> {
    if (this.stt.provider !== 'deepgram' || this.streamFailed || this.closed) return;
    // This utterance's buffer, which keeps what comes while connecting: the turn may end (and
    // `this.utterance` be replaced) before a slow connection opens, and its audio must still go.
    const utterance = this.utterance;
    try {
      if (!this.stream?.open_) {
        const s = new DeepgramStream(this.deps.outbound, this.stt, this.sampleRate, (text) => this.interim(text));
        await s.open();
        if (this.closed) return s.close();
        this.stream = s;
      }
      for (const b of utterance) this.stream.audio(b);
    } catch (err) {
      this.streamFailed = true;
      this.stream = null;
      this.deps.log.warn({ err: String(err) }, 'streaming recognition unavailable; using pre-recorded recognition');
    }
  }

  /** The utterance's text so far, asked for now (a rejection is handled where it is awaited). */
  private recognise(): Promise<string> {
    const pcm = Buffer.concat(this.utterance);
    const before = this.heardBefore;
    this.heardBefore = null;
    const p = this.opening.then(async () => {
      if (!this.stream?.open_) return pcm.length ? transcribe(this.deps.outbound, this.stt, pcm, this.sampleRate) : '';
      const parts = await Promise.all([before ?? '', this.stream.finish()]);
      return parts.filter(Boolean).join(' ');
    });
    p.catch(() => undefined);
    return p;
  }

  private async finishUtterance(spokenMs: number): Promise<void> {
    const recognition = this.recognition;
    this.recognition = null;
    this.heardBefore = null;
    this.utterance = [];
    this.utteranceBytes = 0;
    this.firstEndAt = null;
    if (!recognition || this.closed) return;
    let text: string;
    try {
      text = await recognition;
    } catch (err) {
      this.deps.log.warn({ err: String(err) }, 'speech recognition failed');
      this.host.recognitionFailed?.();
      return;
    }
    if (!text || this.closed) return;
    this.host.transcript(text, true);
    if (this.host.speaking()) {
      // Speech over the avatar becomes a turn only when it may interrupt it.
      const t = this.turn;
      if (!t.allowInterruptions || spokenMs / 1000 < t.minInterruptionDuration || wordCount(text) < t.minInterruptionWords) return;
      this.host.interrupt();
    }
    this.host.userUtterance(text);
  }

  close(): void {
    this.closed = true;
    this.stream?.close();
    if (this.endTimer) clearTimeout(this.endTimer);
    this.stopBarge();
  }
}
