// Audio the player cannot tap sample by sample (a WebRTC SDK's remote track): the mouth follows
// the level the SDK reports (0..1) and, when it gives one, the spectrum's brightness.
import type { Viseme } from '@parla/shared/visemes';
import { visemeForEnergy } from './energy';
import type { MouthSource } from './face-driver';

/** A spectrum's centroid over its lower fifth (the speech band), 0..1. */
export function brightness(freq: ArrayLike<number>): number {
  const bins = Math.floor(freq.length / 5);
  let num = 0,
    den = 0;
  for (let i = 1; i < bins; i++) {
    num += i * freq[i]!;
    den += freq[i]!;
  }
  return den ? num / den / bins : 0;
}

/** SDK levels are loudness-like (0..1); this scale makes a normal voice reach open vowels. */
const LEVEL_TO_RMS = 0.25;

export class LevelMouth implements MouthSource {
  constructor(
    private readonly level: () => number,
    private readonly spectrum?: () => ArrayLike<number>,
  ) {}

  viseme(nowMs: number): Viseme {
    const rms = Math.max(0, this.level()) * LEVEL_TO_RMS;
    // Without a spectrum the shape alternates with the syllable rhythm (about 5 per second).
    const b = this.spectrum ? brightness(this.spectrum()) : 0.3 + 0.3 * Math.abs(Math.sin(nowMs / 100));
    return visemeForEnergy(rms, b);
  }
}
