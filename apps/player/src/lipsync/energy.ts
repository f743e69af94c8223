// Audio without timestamps: the mouth follows the audio's energy (AnalyserNode). Loud and low →
// open rounded vowels, loud and bright → spread vowels, quiet → consonants, silence → rest.
import type { Viseme } from '@parla/shared/visemes';
import type { MouthSource } from './face-driver';

/** Maps a loudness (RMS 0..1) and a brightness (spectral centroid 0..1) to a viseme. */
export function visemeForEnergy(rms: number, brightness: number): Viseme {
  if (rms < 0.02) return 'sil';
  if (rms < 0.05) return brightness > 0.5 ? 'SS' : 'nn';
  if (rms < 0.1) return brightness > 0.55 ? 'E' : brightness > 0.35 ? 'DD' : 'U';
  return brightness > 0.55 ? 'I' : brightness > 0.35 ? 'aa' : 'O';
}

/** The same mapping read from decoded samples around `at` seconds, for audio no analyser can
 *  hear (an AudioContext that never runs): zero crossings per sample stand in for brightness. */
export function visemeFromSamples(data: Float32Array, rate: number, at: number): Viseme {
  const n = 1024;
  const i0 = Math.max(0, Math.floor(at * rate) - n / 2);
  const i1 = Math.min(data.length, i0 + n);
  let sum = 0,
    crossings = 0;
  for (let i = i0; i < i1; i++) {
    const s = data[i]!;
    sum += s * s;
    if (i > i0 && s >= 0 !== data[i - 1]! >= 0) crossings++;
  }
  const count = Math.max(1, i1 - i0);
  return visemeForEnergy(Math.sqrt(sum / count), Math.min(1, (crossings / count) * 4));
}

export class EnergyMouth implements MouthSource {
  private readonly time: Float32Array<ArrayBuffer>;
  private readonly freq: Uint8Array<ArrayBuffer>;

  constructor(private readonly analyser: AnalyserNode) {
    analyser.fftSize = 1024;
    this.time = new Float32Array(analyser.fftSize);
    this.freq = new Uint8Array(analyser.frequencyBinCount);
  }

  viseme(): Viseme {
    this.analyser.getFloatTimeDomainData(this.time);
    let sum = 0;
    for (const s of this.time) sum += s * s;
    const rms = Math.sqrt(sum / this.time.length);
    this.analyser.getByteFrequencyData(this.freq);
    // Centroid over the speech band (up to about 4 kHz of the spectrum).
    const bins = Math.floor(this.freq.length / 5);
    let num = 0,
      den = 0;
    for (let i = 1; i < bins; i++) {
      num += i * this.freq[i]!;
      den += this.freq[i]!;
    }
    return visemeForEnergy(rms, den ? num / den / bins : 0);
  }
}
