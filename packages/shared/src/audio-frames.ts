// Binary frames of the conversation socket (decision 611). Text frames stay JSON
// (schemas/conversation.ts); audio travels as binary frames both ways:
//
// - client → server: microphone audio, raw PCM16 little-endian mono at MIC_SAMPLE_RATE, at most
//   MIC_MAX_FRAME_BYTES per frame, only after a `ready` whose `listen` is 'server'.
// - server → client: one reply chunk = [u32 big-endian header length][header: UTF-8 JSON of
//   audioFrameHeader][the audio bytes in header.format].
import { z } from 'zod';
import { visemeCue, wordCue } from './schemas/conversation';

// This package is typed without DOM or Node globals; both have these two.
declare const TextEncoder: new () => { encode(text: string): Uint8Array };
declare const TextDecoder: new (label: string, options: { fatal: boolean }) => { decode(bytes: Uint8Array): string };

/** Sample rate of the microphone audio the player sends. */
export const MIC_SAMPLE_RATE = 16000;
/** Largest microphone frame: 32 KiB, about one second of 16 kHz PCM16. */
export const MIC_MAX_FRAME_BYTES = 32 * 1024;
/** Largest header of a server audio frame. */
export const AUDIO_HEADER_MAX_BYTES = 64 * 1024;

export const audioFrameHeader = z.object({
  turnId: z.string().min(1).max(100),
  /** Order of the chunk within its turn, from 0. */
  seq: z.number().int().nonnegative(),
  format: z.enum(['pcm16', 'mp3', 'wav', 'opus']),
  /** Required for pcm16. */
  sampleRate: z.number().int().positive().optional(),
  /** Mouth shapes and words of this chunk, in seconds from the chunk's start. */
  visemes: z.array(visemeCue).optional(),
  words: z.array(wordCue).optional(),
  /** The turn's last chunk. */
  last: z.boolean().optional(),
});
export type AudioFrameHeader = z.infer<typeof audioFrameHeader>;

export type DecodedAudioFrame = { ok: true; header: AudioFrameHeader; audio: Uint8Array } | { ok: false; error: string };

/** Builds a server audio frame. */
export function encodeAudioFrame(header: AudioFrameHeader, audio: Uint8Array): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const frame = new Uint8Array(4 + json.length + audio.length);
  new DataView(frame.buffer).setUint32(0, json.length, false);
  frame.set(json, 4);
  frame.set(audio, 4 + json.length);
  return frame;
}

/** Reads a server audio frame; a malformed one gives the reason instead of throwing. */
export function decodeAudioFrame(data: ArrayBuffer | Uint8Array): DecodedAudioFrame {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  if (bytes.length < 4) return { ok: false, error: 'Audio frame too short' };
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, false);
  if (length === 0 || length > AUDIO_HEADER_MAX_BYTES || 4 + length > bytes.length) {
    return { ok: false, error: 'Audio frame header length is invalid' };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(4, 4 + length)));
  } catch {
    return { ok: false, error: 'Audio frame header is not JSON' };
  }
  const header = audioFrameHeader.safeParse(raw);
  if (!header.success) return { ok: false, error: 'Audio frame header does not match its schema' };
  return { ok: true, header: header.data, audio: bytes.subarray(4 + length) };
}

/** Why a microphone frame is refused, or null when it is acceptable. */
export function micFrameProblem(frame: Uint8Array): string | null {
  if (frame.length === 0) return 'Empty audio frame';
  if (frame.length > MIC_MAX_FRAME_BYTES) return `Audio frames may be at most ${MIC_MAX_FRAME_BYTES} bytes`;
  if (frame.length % 2 !== 0) return 'Audio frames are PCM16: an even number of bytes';
  return null;
}
