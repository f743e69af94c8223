// The avatar's streamed voice (voice/reply-player.ts) in the player: captions and the host
// page's speakingStarted/speakingEnded follow it; the speaker button mutes it.
import { useEffect, useMemo, useRef, type RefObject } from 'react';
import type { HostBridge } from '../host/host-bridge';
import type { FaceDriver } from '../lipsync/face-driver';
import { ReplyPlayer } from '../voice/reply-player';

export interface ReplyAudio {
  player: ReplyPlayer;
  /** A reply's text so far, by turn (what the captions and host events say). */
  text: RefObject<Map<string, string>>;
}

export function useReplyAudio(
  driver: FaceDriver,
  language: string,
  speaker: boolean,
  bridge: RefObject<HostBridge | null>,
  caption: (text: string | null) => void,
): ReplyAudio {
  const player = useMemo(() => new ReplyPlayer(driver, language), [driver, language]);
  const text = useRef(new Map<string, string>());
  const captionRef = useRef(caption);
  useEffect(() => {
    captionRef.current = caption;
  }, [caption]);
  useEffect(() => {
    player.setEvents({
      onStart: (turnId) => {
        const said = text.current.get(turnId) ?? '';
        captionRef.current(said);
        bridge.current?.emit('speakingStarted', { text: said });
      },
      onEnd: (turnId, { interrupted }) => {
        const said = text.current.get(turnId) ?? '';
        text.current.delete(turnId);
        bridge.current?.emit('speakingEnded', { text: said, ...(interrupted ? { interrupted: true } : {}) });
        captionRef.current(null);
      },
    });
  }, [player, bridge]);
  useEffect(() => player.setSpeaker(speaker), [player, speaker]);
  useEffect(() => () => player.close(), [player]);
  return useMemo(() => ({ player, text }), [player]);
}
