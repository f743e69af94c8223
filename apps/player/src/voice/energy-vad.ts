// The fallback when Silero cannot run (no WebAssembly, the model cannot load): a speech
// probability from the frame's loudness, adapting to the room's noise floor. Cruder than Silero
// (noise counts as speech), but the microphone still works.

/** RMS of a frame. */
export function rms(frame: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < frame.length; i++) sum += frame[i]! * frame[i]!;
  return frame.length ? Math.sqrt(sum / frame.length) : 0;
}

export class EnergyVad {
  /** The quietest recent level, rising slowly. */
  private floor = 0.003;

  /** 0..1: about 0.5 at 4× the noise floor (12 dB), 1 at 16× or more. */
  probability(frame: Float32Array): number {
    const level = rms(frame);
    this.floor = level < this.floor ? level * 0.5 + this.floor * 0.5 : this.floor * 1.002;
    this.floor = Math.max(this.floor, 0.0005);
    const db = 20 * Math.log10(level / this.floor + 1e-9);
    return Math.max(0, Math.min(1, db / 24));
  }
}
