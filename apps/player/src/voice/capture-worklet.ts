// The microphone's AudioWorklet (loaded by mic-stream.ts with audioWorklet.addModule): resamples
// the input's first channel to 16 kHz and posts 512-sample Float32 frames (32 ms) to the page,
// where the VAD decides which ones are sent. Built as its own file (`?worker&url`).
import { Resampler } from './resampler';

declare const sampleRate: number;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}
declare function registerProcessor(name: string, ctor: new () => AudioWorkletProcessor): void;

class CaptureProcessor extends AudioWorkletProcessor {
  private readonly resampler = new Resampler(sampleRate, 16000, 512);

  process(inputs: Float32Array[][]): boolean {
    const channel = inputs[0]?.[0];
    if (channel) for (const frame of this.resampler.push(channel)) this.port.postMessage(frame, [frame.buffer]);
    return true;
  }
}

registerProcessor('parla-capture', CaptureProcessor);
