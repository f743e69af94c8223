// The microphone as 16-bit PCM at the rate a provider asks for, in chunks of about 100 ms. An
// AudioWorklet (its code made in the page, nothing fetched) hands the samples over; they are
// averaged down to the target rate here.
import { floatToPcm16 } from '../elevenlabs/protocol';

const CHUNK_SECONDS = 0.1;

const WORKLET = `
class ParlaMicTap extends AudioWorkletProcessor {
  process(inputs) {
    const ch = inputs[0] && inputs[0][0];
    if (ch) this.port.postMessage(ch.slice(0));
    return true;
  }
}
registerProcessor('parla-mic-tap', ParlaMicTap);
`;

/** Resamples by averaging (down) or repeating (up) samples: enough for speech recognition. */
export class Resampler {
  private pos = 0;
  private acc = 0;
  private count = 0;

  constructor(
    private readonly from: number,
    private readonly to: number,
  ) {}

  push(input: Float32Array): Float32Array {
    const step = this.from / this.to;
    const out: number[] = [];
    for (const s of input) {
      this.acc += s;
      this.count++;
      this.pos += 1;
      while (this.pos >= step) {
        out.push(this.count ? this.acc / this.count : s);
        this.acc = 0;
        this.count = 0;
        this.pos -= step;
      }
    }
    return Float32Array.from(out);
  }
}

export class MicCapture {
  private stream: MediaStream | null = null;
  private ctx: AudioContext | null = null;
  private pending: Float32Array[] = [];
  private pendingLength = 0;

  constructor(
    private readonly sampleRate: number,
    private readonly onChunk: (pcm: Uint8Array) => void,
  ) {}

  get running(): boolean {
    return this.stream !== null;
  }

  /** Asks for the microphone; throws when the user or the browser refuses it. */
  async start(): Promise<void> {
    if (this.stream) return;
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 },
    });
    const ctx = new AudioContext();
    const url = URL.createObjectURL(new Blob([WORKLET], { type: 'text/javascript' }));
    try {
      await ctx.audioWorklet.addModule(url);
    } finally {
      URL.revokeObjectURL(url);
    }
    const source = ctx.createMediaStreamSource(stream);
    const tap = new AudioWorkletNode(ctx, 'parla-mic-tap');
    const resampler = new Resampler(ctx.sampleRate, this.sampleRate);
    const chunk = Math.round(this.sampleRate * CHUNK_SECONDS);
    tap.port.onmessage = (ev: MessageEvent<Float32Array>) => {
      const samples = resampler.push(ev.data);
      this.pending.push(samples);
      this.pendingLength += samples.length;
      if (this.pendingLength < chunk) return;
      const all = new Float32Array(this.pendingLength);
      let at = 0;
      for (const p of this.pending) {
        all.set(p, at);
        at += p.length;
      }
      this.pending = [];
      this.pendingLength = 0;
      this.onChunk(floatToPcm16(all));
    };
    source.connect(tap);
    // The tap produces no sound; a silent gain keeps it pulled by the graph.
    const mute = ctx.createGain();
    mute.gain.value = 0;
    tap.connect(mute).connect(ctx.destination);
    await ctx.resume();
    this.stream = stream;
    this.ctx = ctx;
  }

  stop(): void {
    this.stream?.getTracks().forEach((t) => t.stop());
    this.stream = null;
    void this.ctx?.close().catch(() => undefined);
    this.ctx = null;
    this.pending = [];
    this.pendingLength = 0;
  }
}
