// A sentence's audio in pieces of at most 128 KiB of PCM (decision 611): a long sentence would
// otherwise travel as one frame of many seconds — above the socket's frame cap between a
// pipeline node and the server (256 KiB, base64 in JSON there), which dropped the node. Word and
// viseme cues go with the piece they start in, in seconds from that piece's start. Only PCM can
// be cut anywhere.
import type { EngineEvent } from '../types';

type AudioEvent = Extract<EngineEvent, { type: 'audio' }>;

export const AUDIO_PIECE_BYTES = 128 * 1024;

export function audioPieces(event: AudioEvent, maxBytes = AUDIO_PIECE_BYTES): AudioEvent[] {
  if (event.format !== 'pcm16' || !event.sampleRate) return [event];
  const bytes = Buffer.from(event.audio, 'base64');
  const size = Math.max(2, maxBytes - (maxBytes % 2));
  if (bytes.length <= size) return [event];
  const pieces: AudioEvent[] = [];
  for (let at = 0; at < bytes.length; at += size) {
    const from = at / 2 / event.sampleRate;
    const to = Math.min(at + size, bytes.length) / 2 / event.sampleRate;
    const last = at + size >= bytes.length;
    const words = event.words
      ?.filter((w) => w.start >= from && (w.start < to || last))
      .map((w) => ({ word: w.word, start: w.start - from, end: w.end - from }));
    const visemes = event.visemes
      ?.filter((v) => v.start >= from && (v.start < to || last))
      .map((v) => ({ viseme: v.viseme, start: v.start - from, end: v.end - from }));
    pieces.push({
      type: 'audio',
      format: 'pcm16',
      sampleRate: event.sampleRate,
      audio: bytes.subarray(at, at + size).toString('base64'),
      ...(words?.length ? { words } : {}),
      ...(visemes?.length ? { visemes } : {}),
    });
  }
  return pieces;
}
