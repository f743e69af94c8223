// The audio frames' codec (@parla/shared/audio-frames) validates headers with zod, which stays
// out of the player's first load: it is fetched once the conversation says it uses audio
// (ready.audio or ready.listen 'server'), or with the first binary frame.
import type * as AudioFrames from '@parla/shared/audio-frames';

export type AudioCodec = typeof AudioFrames;

let loading: Promise<AudioCodec> | null = null;

export function loadAudioCodec(): Promise<AudioCodec> {
  loading ??= import('@parla/shared/audio-frames');
  return loading;
}
