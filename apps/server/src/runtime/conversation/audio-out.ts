// The avatar's audio on its way to the player (decision 611): each chunk an engine yields goes
// out as one binary frame (encodeAudioFrame: header with turn, order, format and timings, then
// the bytes). It also keeps when the player will have finished playing what was sent, which is
// how long the avatar is "speaking" for barge-in.
import { encodeAudioFrame } from '@parla/shared/audio-frames';
import type { EngineEvent } from '../types';
import type { ClientSink } from './ports';

type AudioEvent = Extract<EngineEvent, { type: 'audio' }>;

export class AudioOut {
  /** Epoch ms at which the player has played everything sent. */
  playingUntil = 0;
  /** The turn whose audio was sent last, and its seq counter. */
  lastTurnId: string | null = null;
  private seq = 0;

  constructor(
    private readonly sink: ClientSink,
    private readonly clock: { now(): Date },
  ) {}

  private now(): number {
    return this.clock.now().getTime();
  }

  send(turnId: string, event: AudioEvent): void {
    if (turnId !== this.lastTurnId) {
      this.lastTurnId = turnId;
      this.seq = 0;
    }
    const bytes = Buffer.from(event.audio, 'base64');
    this.sink.sendBinary(
      encodeAudioFrame(
        {
          turnId,
          seq: this.seq++,
          format: event.format,
          ...(event.sampleRate ? { sampleRate: event.sampleRate } : {}),
          ...(event.words ? { words: event.words } : {}),
          ...(event.visemes ? { visemes: event.visemes } : {}),
        },
        bytes,
      ),
    );
    const seconds = event.format === 'pcm16' && event.sampleRate ? bytes.length / 2 / event.sampleRate : 0;
    this.playingUntil = Math.max(this.playingUntil, this.now()) + seconds * 1000;
  }

  /** The turn's audio is complete: an empty frame with `last`. */
  end(turnId: string): void {
    if (this.lastTurnId !== turnId || this.seq === 0) return;
    this.sink.sendBinary(encodeAudioFrame({ turnId, seq: this.seq++, format: 'pcm16', last: true }, new Uint8Array(0)));
  }

  /** Whether the player is still playing audio of this turn. */
  playing(turnId: string | null = this.lastTurnId): boolean {
    return turnId !== null && turnId === this.lastTurnId && this.now() < this.playingUntil;
  }

  stop(): void {
    this.playingUntil = 0;
  }
}
