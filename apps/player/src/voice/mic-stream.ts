// The microphone when the avatar listens on the server (ready.listen 'server'): getUserMedia →
// the capture worklet (16 kHz frames) → the VAD (Silero, or the energy fallback when its
// WebAssembly cannot run) → the segmenter → `user_speech start`, binary PCM16 frames of about
// 64 ms, `user_speech end` (decision 611). performance marks `parla:vad-start`/`parla:vad-end`
// let the benches measure from the VAD's edges; `parla:mic-granted`, `parla:vad-loaded`,
// `parla:mic-listening` and `parla:mic-first-frame` show how far opening the microphone got.
import { MIC_MAX_FRAME_BYTES } from '../conversation/audio-frame-reader';
import workletUrl from './capture-worklet.ts?worker&url';
import { EnergyVad } from './energy-vad';
import { pcm16FromFloat } from './pcm16';
import { Segmenter, type SegmentEvent } from './segmenter';
import { segmenterOptions, type AvatarVad } from './vad-options';

export interface MicSink {
  audio(pcm16: Uint8Array<ArrayBuffer>): void;
  speech(event: 'start' | 'end'): void;
}

/** 16 kHz frames of 512 samples. */
const FRAME_MS = 32;
/** Frames per binary message: 64 ms. */
const BATCH = 2;
const MAX_BATCH = Math.floor(MIC_MAX_FRAME_BYTES / (512 * 2));
/** How long the capture's AudioContext may take to start. */
const START_TIMEOUT_MS = 5000;
/** Frames kept while the voice detector loads (10 s): what the user says meanwhile is judged
 *  once it is ready, not lost. */
const MAX_EARLY_FRAMES = Math.ceil(10_000 / FRAME_MS);

type Probability = (frame: Float32Array) => Promise<number> | number;

async function loadVad(): Promise<{ probability: Probability; kind: 'silero' | 'energy' }> {
  try {
    if (typeof WebAssembly !== 'object') throw new Error('WebAssembly is not available');
    const { loadSilero } = await import('./silero');
    return { probability: await loadSilero(), kind: 'silero' };
  } catch (err) {
    console.warn(
      `Parla: the Silero voice detector cannot run here (${err instanceof Error ? err.message : String(err)}); using a simpler loudness detector.`,
    );
    const energy = new EnergyVad();
    return { probability: (f) => energy.probability(f), kind: 'energy' };
  }
}

export class MicStream {
  private pending: Float32Array[] = [];
  private chain: Promise<void> = Promise.resolve();
  private stopped = false;
  private heard = false;

  private constructor(
    private readonly stream: MediaStream,
    private readonly context: AudioContext,
    private readonly node: AudioWorkletNode,
    private readonly segmenter: Segmenter,
    private readonly probability: Probability,
    private readonly sink: MicSink,
    readonly vadKind: 'silero' | 'energy',
    early: Float32Array[],
  ) {
    for (const frame of early) this.judge(frame);
    node.port.onmessage = (ev: MessageEvent<Float32Array>) => this.judge(ev.data);
  }

  private judge(frame: Float32Array): void {
    if (!this.heard) performance.mark('parla:mic-first-frame');
    this.heard = true;
    // Silero answers asynchronously: frames are judged one after another, in order.
    this.chain = this.chain.then(async () => {
      if (this.stopped) return;
      const p = await this.probability(frame);
      if (!this.stopped) this.handle(this.segmenter.push(frame, p));
    });
  }

  /** Asks for the microphone (the browser may prompt) and starts listening. An AudioContext
   *  that does not start (Firefox with no working sound device waits forever) is a failure the
   *  user is told about, not a mic that looks on and hears nothing. Capture starts as soon as
   *  the microphone is granted: words said while the voice detector still loads (seconds on a
   *  slow machine) are kept and judged once it is ready. */
  static async open(vad: Partial<AvatarVad> | undefined, sink: MicSink): Promise<MicStream> {
    const loading = loadVad().then((d) => (performance.mark('parla:vad-loaded', { detail: d.kind }), d));
    const stream = await navigator.mediaDevices
      .getUserMedia({
        audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true },
      })
      .then((s) => (performance.mark('parla:mic-granted'), s));
    const context = new AudioContext();
    try {
      await context.audioWorklet.addModule(workletUrl);
      const source = context.createMediaStreamSource(stream);
      const node = new AudioWorkletNode(context, 'parla-capture', { numberOfInputs: 1, numberOfOutputs: 1, channelCount: 1 });
      // Some engines only run a worklet that leads to the output: a silent path does.
      const mute = context.createGain();
      mute.gain.value = 0;
      source.connect(node).connect(mute).connect(context.destination);
      await Promise.race([context.resume(), new Promise((resolve) => setTimeout(resolve, START_TIMEOUT_MS))]);
      if (context.state !== 'running') throw Object.assign(new Error('the audio context does not start'), { name: 'AudioStalledError' });
      const early: Float32Array[] = [];
      node.port.onmessage = (ev: MessageEvent<Float32Array>) => {
        if (early.length < MAX_EARLY_FRAMES) early.push(ev.data);
      };
      const detector = await loading;
      performance.mark('parla:mic-listening');
      return new MicStream(
        stream,
        context,
        node,
        new Segmenter(segmenterOptions(vad, FRAME_MS)),
        detector.probability,
        sink,
        detector.kind,
        early,
      );
    } catch (err) {
      stream.getTracks().forEach((t) => t.stop());
      void context.close();
      throw err;
    }
  }

  setVad(vad: Partial<AvatarVad> | undefined): void {
    this.segmenter.setOptions(segmenterOptions(vad, FRAME_MS));
  }

  stop(): void {
    if (this.stopped) return;
    this.handle(this.segmenter.flush());
    this.stopped = true;
    this.node.port.onmessage = null;
    this.stream.getTracks().forEach((t) => t.stop());
    void this.context.close();
  }

  private handle(events: SegmentEvent[]): void {
    for (const e of events) {
      if (e.type === 'start') {
        performance.mark('parla:vad-start');
        this.sink.speech('start');
      } else if (e.type === 'audio') {
        this.pending.push(...e.frames);
        while (this.pending.length >= BATCH)
          this.sink.audio(pcm16FromFloat(this.pending.splice(0, Math.min(this.pending.length, MAX_BATCH))));
      } else {
        if (this.pending.length) this.sink.audio(pcm16FromFloat(this.pending.splice(0)));
        performance.mark('parla:vad-end');
        this.sink.speech('end');
      }
    }
  }
}
