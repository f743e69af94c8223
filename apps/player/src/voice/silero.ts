// Silero VAD (@ricky0123/vad-web's model and wrapper) on onnxruntime-web's WebAssembly build,
// every file bundled into the player and served by our server: nothing comes from a CDN. This
// module is imported only when the microphone is first used (mic-stream.ts), so none of it is
// in the player's first load.
import * as ort from 'onnxruntime-web/wasm';
import { log } from '@ricky0123/vad-web/dist/logging';
import { Silero } from '@ricky0123/vad-web/dist/models/silero';
import wasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.wasm?url';
import modelUrl from '@ricky0123/vad-web/dist/silero_vad_v5.onnx?url';

export type SpeechProbability = (frame: Float32Array) => Promise<number>;

export async function loadSilero(): Promise<SpeechProbability> {
  ort.env.wasm.wasmPaths = { wasm: new URL(wasmUrl, window.location.href).href };
  // Threads need a cross-origin-isolated page, which an embeddable player is not.
  ort.env.wasm.numThreads = 1;
  ort.env.logLevel = 'error';
  // vad-web logs its debug lines with console.log; the page's console is the host's too.
  log.debug = () => undefined;
  const model = await Silero.new(ort, async () => {
    const res = await fetch(modelUrl);
    if (!res.ok) throw new Error(`The VAD model could not be loaded (${res.status})`);
    return res.arrayBuffer();
  });
  return async (frame) => (await model.process(frame)).isSpeech;
}
