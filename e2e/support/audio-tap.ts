// What the page plays, as a listener would hear it: an init script (every frame) taps every
// AudioNode connected to an AudioContext's destination with an AnalyserNode and samples the
// peak level every 5 ms. `window.__audio` keeps the current level and the times (page clock,
// performance.now) at which sound began and stopped; a stop counts after SILENCE_MS of quiet, so
// the dips of a modulated voice are not taken for silence. Used by e2e/voice.spec.ts and
// bench/voice-browser.ts.
import type { Frame } from '@playwright/test';

export interface AudioTap {
  level: number;
  maxLevel: number;
  /** Silence → sound. */
  onsets: number[];
  /** Sound → lasting silence (the time the silence began). */
  stops: number[];
}

export function installAudioTap(): void {
  const THRESHOLD = 0.02;
  const SILENCE_MS = 150;
  const state: AudioTap = { level: 0, maxLevel: 0, onsets: [], stops: [] };
  (window as unknown as { __audio: AudioTap }).__audio = state;
  const taps: AnalyserNode[] = [];
  const connect = AudioNode.prototype.connect as (this: AudioNode, ...args: unknown[]) => unknown;
  AudioNode.prototype.connect = function (this: AudioNode, ...args: unknown[]) {
    if (args[0] instanceof AudioDestinationNode) {
      const analyser = this.context.createAnalyser();
      analyser.fftSize = 512;
      connect.call(this, analyser);
      taps.push(analyser);
    }
    return connect.apply(this, args);
  } as typeof AudioNode.prototype.connect;
  const buf = new Float32Array(512);
  let sounding = false;
  let quietSince = 0;
  setInterval(() => {
    let peak = 0;
    for (const a of taps) {
      a.getFloatTimeDomainData(buf);
      for (const x of buf) peak = Math.max(peak, Math.abs(x));
    }
    const now = performance.now();
    state.level = peak;
    state.maxLevel = Math.max(state.maxLevel, peak);
    if (peak >= THRESHOLD) {
      quietSince = 0;
      if (!sounding) state.onsets.push(now);
      sounding = true;
    } else if (sounding) {
      quietSince ||= now;
      if (now - quietSince >= SILENCE_MS) {
        state.stops.push(quietSince);
        sounding = false;
        quietSince = 0;
      }
    }
  }, 5);
}

export const audioTap = (frame: Frame): Promise<AudioTap> => frame.evaluate(() => (window as unknown as { __audio: AudioTap }).__audio);

/** performance marks of the player's VAD (voice/mic-stream.ts) and replies, page clock. */
export const vadMarks = (frame: Frame): Promise<{ starts: number[]; ends: number[]; frames: number[] }> =>
  frame.evaluate(() => ({
    starts: performance.getEntriesByName('parla:vad-start').map((e) => e.startTime),
    ends: performance.getEntriesByName('parla:vad-end').map((e) => e.startTime),
    /** The first audio frame of each reply turn reached the player (voice/reply-player.ts). */
    frames: performance.getEntriesByName('parla:reply-frame').map((e) => e.startTime),
  }));

/** How far listening got, for a test's failure: the player's marks (decision 611: mic granted, VAD
 *  loaded, listening, first frame, each VAD edge) as milliseconds since the page opened. */
export const listeningMarks = (frame: Frame): Promise<string[]> =>
  frame.evaluate(() =>
    performance
      .getEntriesByType('mark')
      .filter((e) => e.name.startsWith('parla:'))
      .map((e) => `${e.name} ${Math.round(e.startTime)}`),
  );
