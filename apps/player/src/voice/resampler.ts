// Microphone audio at the AudioContext's rate (44.1 or 48 kHz) → 16 kHz mono frames of a fixed
// size (Silero's 512 samples = 32 ms). Each output sample is the mean of the input samples it
// covers (a box filter: enough against aliasing for speech at these ratios); upsampling, which
// no browser needs in practice, repeats samples. Runs inside the capture worklet, streaming:
// block boundaries do not matter.
export class Resampler {
  private readonly ratio: number;
  /** Absolute input index at which the next output sample is complete. */
  private boundary: number;
  private index = 0;
  private sum = 0;
  private count = 0;
  private last = 0;
  private frame: Float32Array;
  private filled = 0;

  constructor(
    inputRate: number,
    private readonly outputRate = 16000,
    private readonly frameSize = 512,
  ) {
    if (!(inputRate > 0) || !(outputRate > 0) || !(frameSize > 0)) throw new Error('Resampler rates and frame size must be positive');
    this.ratio = inputRate / outputRate;
    this.boundary = this.ratio;
    this.frame = new Float32Array(frameSize);
  }

  /** Takes a block of input; returns the frames it completed (often none). */
  push(input: ArrayLike<number>): Float32Array[] {
    const out: Float32Array[] = [];
    for (let i = 0; i < input.length; i++) {
      const x = input[i]!;
      this.sum += x;
      this.count++;
      this.last = x;
      this.index++;
      while (this.index >= this.boundary) {
        this.emit(this.count ? this.sum / this.count : this.last, out);
        this.sum = 0;
        this.count = 0;
        this.boundary += this.ratio;
      }
    }
    // Keep the counters small over hours of audio.
    if (this.index > 1e9) {
      this.boundary -= this.index;
      this.index = 0;
    }
    return out;
  }

  private emit(sample: number, out: Float32Array[]): void {
    this.frame[this.filled++] = sample;
    if (this.filled === this.frameSize) {
      out.push(this.frame);
      this.frame = new Float32Array(this.frameSize);
      this.filled = 0;
    }
  }
}
