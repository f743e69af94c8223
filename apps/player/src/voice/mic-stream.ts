// The microphone when the avatar listens on the server (ready.listen 'server'): getUserMedia →
// the capture worklet (16 kHz frames) → the VAD (Silero, or the energy fallback when its
// WebAssembly cannot run) → the segmenter → `user_speech start`, binary PCM16 frames of about
// 64 ms, `user_speech end` (decision 611). performance marks `parla:vad-start`/`parla:vad-end`
// let the benches measure from the VAD's edges; `parla:mic-granted`, `parla:vad-loaded`,
// `parla:mic-listening` and `parla:mic-first-frame` show how far opening the microphone got.
import workletUrl from './capture-worklet.ts?worker&url';
import { EnergyVad } from './energy-vad';
import { FRAME_MS, MicFrames, type MicSink, type Probability } from './mic-frames';
import { Segmenter } from './segmenter';
import { segmenterOptions, type AvatarVad } from './vad-options';

/** How long the capture's AudioContext may take to start. */
const START_TIMEOUT_MS = 5000;

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
  private constructor(
    private readonly stream: MediaStream,
    private readonly context: AudioContext,
    private readonly node: AudioWorkletNode,
    private readonly segmenter: Segmenter,
    private readonly frames: MicFrames,
    readonly vadKind: 'silero' | 'energy',
  ) {}

  /** Asks for the microphone (the browser may prompt) and starts listening. An AudioContext
   *  that does not start (Firefox with no working sound device waits forever) is a failure the
   *  user is told about, not a mic that looks on and hears nothing. Capture starts as soon as
   *  the microphone is granted: words said while the voice detector still loads (seconds on a
   *  slow machine) are kept and judged once it is ready (mic-frames.ts). */
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
      const segmenter = new Segmenter(segmenterOptions(vad, FRAME_MS));
      const frames = new MicFrames(segmenter, sink);
      node.port.onmessage = (ev: MessageEvent<Float32Array>) => frames.push(ev.data);
      const detector = await loading;
      performance.mark('parla:mic-listening');
      frames.ready(detector.probability);
      return new MicStream(stream, context, node, segmenter, frames, detector.kind);
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
    this.frames.stop();
    this.node.port.onmessage = null;
    this.stream.getTracks().forEach((t) => t.stop());
    void this.context.close();
  }
}
