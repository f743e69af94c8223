// The microphone while the conversation is live and the mic is on (only ever switched on by the
// user or the host page's setMic): a third-party agent takes it itself; an avatar that listens
// on the server gets the microphone's audio (voice/server-listening.ts); otherwise the browser's
// speech recognition sends what it hears like typed text. When recognition fails (no device,
// permission lost, no service) the listener stops itself: the button goes off and the user
// reads why; the host page gets an `error` with `mic`.
import { useEffect, type RefObject } from 'react';
import type { ConversationClient } from '../conversation/conversation-client';
import type { HostBridge } from '../host/host-bridge';
import { SpeechIn } from '../speech/speech-in';
import { listenOnServer } from '../voice/server-listening';
import type { AvatarVad } from '../voice/vad-options';
import { micFailureMessage } from './mic-messages';

export interface Listening {
  active: boolean;
  mic: boolean;
  providerMic: boolean;
  /** ready.listen 'server': stream the microphone with these VAD options. */
  server: { vad?: AvatarVad } | null;
  language: string;
  client: RefObject<ConversationClient | null>;
  bridge: RefObject<HostBridge | null>;
  onText(text: string): void;
  /** What recognition heard so far (Transcription Streaming shows it). */
  onInterim?(text: string): void;
  /** Recognition failed: show the message and switch the mic off. */
  onFailed(message: string): void;
}

export function useListening({ active, mic, providerMic, server, language, client, bridge, onText, onInterim, onFailed }: Listening): void {
  useEffect(() => {
    if (!active) return;
    if (providerMic) {
      const c = client.current;
      c?.setMic?.(mic);
      return () => c?.setMic?.(false);
    }
    if (!mic) return;
    const failed = (error: string) => {
      bridge.current?.emit('error', { code: 0, message: micFailureMessage(error), mic: error });
      onFailed(micFailureMessage(error));
    };
    if (server)
      return listenOnServer(
        server.vad,
        { audio: (b) => client.current?.sendAudio?.(b), speech: (e, atMs) => client.current?.sendSpeech?.(e, atMs) },
        failed,
      );
    const listener = new SpeechIn(language);
    if (!listener.start({ onText, ...(onInterim ? { onInterim } : {}), onError: failed })) failed('unavailable');
    return () => listener.stop();
    // onText and onFailed are stable for the player's lifetime.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, mic, providerMic, server, language, client, bridge]);
}
