// Whether the avatar is speaking, as barge-in needs to know it: while a reply is produced, until
// the audio sent for it has played (decision 611), or, without server audio, for the time the
// player takes to speak the text itself (estimated from its words). The listener hears when the
// avatar starts and when it falls silent; a remote node's listener decides barge-in with that.
import type { AudioOut } from './audio-out';

/** Words per second used to estimate how long the player speaks a reply. */
const SPEAKING_WORDS_PER_SECOND = 3;

export class SpeakingState {
  private until = 0;
  private quietTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly audioOut: AudioOut,
    private readonly clock: { now(): Date },
    private readonly listener: { speakingChanged(speaking: boolean): void },
  ) {}

  private now(): number {
    return this.clock.now().getTime();
  }

  private changed(speaking: boolean): void {
    this.listener.speakingChanged(speaking);
  }

  isSpeaking(replying: boolean): boolean {
    return replying || this.now() < this.until || this.audioOut.playing();
  }

  /** A reply's first words. */
  started(): void {
    this.clearQuietTimer();
    this.changed(true);
  }

  /** A reply ended: with its own audio it lasts until that has played; without, the player
   *  speaks its words; a cut reply is silent at once. */
  finished(interrupted: boolean, words: number, hadAudio: boolean): void {
    this.until = interrupted || hadAudio ? 0 : this.now() + (words / SPEAKING_WORDS_PER_SECOND) * 1000;
    this.quietWhenPlayed();
  }

  /** An interrupt: the estimate ends now; a pending "silent" comes when the (stopped) audio has. */
  cut(): void {
    this.until = 0;
    if (this.quietTimer) this.quietWhenPlayed();
  }

  stop(): void {
    this.clearQuietTimer();
  }

  private quietWhenPlayed(): void {
    this.clearQuietTimer();
    const left = this.audioOut.playingUntil - this.now();
    if (left <= 0) return this.changed(false);
    this.quietTimer = setTimeout(() => {
      this.quietTimer = null;
      this.changed(false);
    }, left);
    this.quietTimer.unref();
  }

  private clearQuietTimer(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = null;
  }
}
