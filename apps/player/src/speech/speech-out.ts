// Speech out. Every utterance gets a viseme timeline; the browser's speech synthesis speaks it
// when a voice for the language exists and the speaker is on, and its word boundaries keep the
// lips in step. With no voice, or the speaker off, the timeline plays on its own, so the face
// always talks. Utterances queue; cancel() stops all (interruptions, hang-up).
import type { VoiceGender } from '@parla/shared/schemas/catalogue';
import { TimelinePlayback, type FaceDriver } from '../lipsync/face-driver';
import { buildTimeline } from '../lipsync/timeline';
import { loadVoices, pickVoice } from './voices';

export interface VoiceSettings {
  language: string;
  gender: VoiceGender;
  name?: string;
  wordsPerSecond: number;
}

export interface SpeechEvents {
  onStart?(text: string): void;
  /** Every onStart has its onEnd; `interrupted` when the utterance was cut (cancel()). */
  onEnd?(text: string, info: { interrupted: boolean }): void;
  /** Once per player: the browser cannot speak this language (no voice, or synthesis never
   *  starts) and no server voice speaks for it; the face moves in silence. */
  onUnavailable?(reason: 'no-voice' | 'no-synthesis'): void;
}

const START_TIMEOUT_MS = 1500;
const now = () => performance.now();

export class SpeechOut {
  private queue: { text: string; resolve: () => void }[] = [];
  private busy = false;
  private generation = 0;
  private speakerOn = true;
  private voices: SpeechSynthesisVoice[] = [];
  private stopCurrent: (() => void) | null = null;
  private readonly voicesLoaded: Promise<void>;
  private toldUnavailable = false;

  constructor(
    private readonly driver: FaceDriver,
    private readonly voice: VoiceSettings,
    private events: SpeechEvents = {},
    private readonly synth: SpeechSynthesis | null = typeof speechSynthesis === 'undefined' ? null : speechSynthesis,
  ) {
    this.voicesLoaded = loadVoices(600, synth).then((v) => void (this.voices = v));
  }

  setEvents(events: SpeechEvents): void {
    this.events = events;
  }

  setSpeaker(on: boolean): void {
    this.speakerOn = on;
    // Muting mid-sentence silences the voice but the face finishes the sentence.
    if (!on) this.synth?.cancel();
  }

  get speaking(): boolean {
    return this.busy;
  }

  say(text: string): Promise<void> {
    const clean = text.trim();
    if (!clean) return Promise.resolve();
    return new Promise((resolve) => {
      this.queue.push({ text: clean, resolve });
      void this.next();
    });
  }

  cancel(): void {
    this.generation++;
    const pending = this.queue;
    this.queue = [];
    this.stopCurrent?.();
    this.synth?.cancel();
    for (const p of pending) p.resolve();
  }

  private async next(): Promise<void> {
    if (this.busy) return;
    const item = this.queue.shift();
    if (!item) return;
    this.busy = true;
    const gen = this.generation;
    this.events.onStart?.(item.text);
    try {
      await this.speak(item.text);
    } finally {
      this.busy = false;
      this.events.onEnd?.(item.text, { interrupted: gen !== this.generation });
      item.resolve();
      void this.next();
    }
  }

  private unavailable(reason: 'no-voice' | 'no-synthesis'): void {
    if (this.toldUnavailable) return;
    this.toldUnavailable = true;
    this.events.onUnavailable?.(reason);
  }

  private async speak(text: string): Promise<void> {
    const timeline = buildTimeline(text, { language: this.voice.language, wordsPerSecond: this.voice.wordsPerSecond });
    const gen = this.generation;
    if (this.speakerOn) await this.voicesLoaded;
    if (gen !== this.generation) return;
    const voice = this.speakerOn && this.synth ? pickVoice(this.voices, this.voice.language, this.voice.gender, this.voice.name) : null;
    if (this.speakerOn && !voice) this.unavailable(this.synth ? 'no-voice' : 'no-synthesis');
    return new Promise((resolve) => {
      let playback: TimelinePlayback | null = null;
      let finished = false;
      const timers: ReturnType<typeof setTimeout>[] = [];
      const finish = () => {
        if (finished) return;
        finished = true;
        timers.forEach(clearTimeout);
        if (playback && this.driver.isUsing(playback)) this.driver.use(null);
        this.stopCurrent = null;
        resolve();
      };
      this.stopCurrent = finish;
      const silent = () => {
        playback = new TimelinePlayback(timeline, now());
        this.driver.use(playback);
        timers.push(setTimeout(finish, timeline.duration * 1000));
      };
      if (!voice || !this.synth) return silent();

      const u = new SpeechSynthesisUtterance(text);
      u.voice = voice;
      u.lang = voice.lang;
      let started = false;
      u.onstart = () => {
        started = true;
        playback = new TimelinePlayback(timeline, now());
        this.driver.use(playback);
        // Without boundary events the estimate may run out before the voice: keep talking.
        const keepUp = () => {
          if (finished || !playback) return;
          if (playback.finished(now()) && !playback.synced) playback.restart(now());
          timers.push(setTimeout(keepUp, 200));
        };
        keepUp();
      };
      u.onboundary = (e) => {
        if (e.name === 'word' || e.name === undefined) playback?.sync(e.charIndex, now());
      };
      u.onend = finish;
      u.onerror = () => (started ? finish() : (this.synth?.cancel(), silent()));
      this.synth.speak(u);
      // Some engines never start (no audio device, blocked autoplay): fall back to the clock.
      timers.push(
        setTimeout(() => {
          if (!started && !finished) {
            this.unavailable('no-synthesis');
            this.synth?.cancel();
            silent();
          }
        }, START_TIMEOUT_MS),
      );
      timers.push(setTimeout(finish, (timeline.duration * 3 + 10) * 1000));
    });
  }
}
