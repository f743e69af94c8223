// The microphone streamed to the server while the mic is on (use-listening.ts): opens MicStream
// and reports a failure (no device, permission refused) in the words of mic-messages.ts.
import type { AvatarVad } from './vad-options';
import type { MicSink } from './mic-frames';

/** The browser's getUserMedia error → the recognition-style error names mic-messages.ts knows. */
export function micErrorName(err: unknown): string {
  const name =
    err instanceof Error || (typeof err === 'object' && err !== null && 'name' in err) ? String((err as { name: unknown }).name) : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'not-allowed';
  if (name === 'AudioStalledError') return 'audio-stalled';
  if (name === 'NotFoundError' || name === 'NotReadableError' || name === 'OverconstrainedError' || name === 'AbortError')
    return 'audio-capture';
  return 'audio-capture';
}

/** Starts streaming; returns the stop function at once (the stream opens in the background). */
export function listenOnServer(vad: Partial<AvatarVad> | undefined, sink: MicSink, onError: (error: string) => void): () => void {
  let stopped = false;
  let stop: (() => void) | null = null;
  void import('./mic-stream')
    .then(({ MicStream }) => MicStream.open(vad, sink))
    .then((mic) => {
      if (stopped) mic.stop();
      else stop = () => mic.stop();
    })
    .catch((err: unknown) => {
      if (!stopped) onError(micErrorName(err));
    });
  return () => {
    stopped = true;
    stop?.();
  };
}
