// Reads the server's reply audio frames ([u32 big-endian header length][JSON header][audio],
// decision 611) without zod: the player takes only types from @parla/shared's schemas, so
// zod's object and array validators stay out of its first load (bench 6). The checks are the
// header's shape, as far as playing it needs; audio-frame-reader.test.ts holds this reader to
// the shared codec (encodeAudioFrame/decodeAudioFrame) on good and malformed frames.
import type { AudioFrameHeader } from '@parla/shared/audio-frames';

/** The shared codec's limits (the test checks they match). */
export const AUDIO_HEADER_MAX_BYTES = 64 * 1024;
export const MIC_MAX_FRAME_BYTES = 32 * 1024;
const FORMATS = new Set(['pcm16', 'mp3', 'wav', 'opus']);

export type ReadAudioFrame = { ok: true; header: AudioFrameHeader; audio: Uint8Array } | { ok: false; error: string };

const isCueList = (v: unknown, key: 'viseme' | 'word') =>
  v === undefined ||
  (Array.isArray(v) &&
    v.every(
      (c) =>
        c &&
        typeof c === 'object' &&
        typeof (c as Record<string, unknown>)[key] === 'string' &&
        typeof (c as Record<string, unknown>).start === 'number' &&
        typeof (c as Record<string, unknown>).end === 'number',
    ));

function header(raw: unknown): AudioFrameHeader | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const h = raw as Record<string, unknown>;
  if (typeof h.turnId !== 'string' || !h.turnId || h.turnId.length > 100) return null;
  if (typeof h.seq !== 'number' || !Number.isInteger(h.seq) || h.seq < 0) return null;
  if (typeof h.format !== 'string' || !FORMATS.has(h.format)) return null;
  if (h.sampleRate !== undefined && (typeof h.sampleRate !== 'number' || !Number.isInteger(h.sampleRate) || h.sampleRate <= 0)) return null;
  if (h.last !== undefined && typeof h.last !== 'boolean') return null;
  if (!isCueList(h.visemes, 'viseme') || !isCueList(h.words, 'word')) return null;
  return h as AudioFrameHeader;
}

export function readAudioFrame(data: ArrayBuffer | Uint8Array): ReadAudioFrame {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  if (bytes.length < 4) return { ok: false, error: 'Audio frame too short' };
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, false);
  if (length === 0 || length > AUDIO_HEADER_MAX_BYTES || 4 + length > bytes.length)
    return { ok: false, error: 'Audio frame header length is invalid' };
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(4, 4 + length)));
  } catch {
    return { ok: false, error: 'Audio frame header is not JSON' };
  }
  const h = header(raw);
  if (!h) return { ok: false, error: 'Audio frame header does not match its schema' };
  return { ok: true, header: h, audio: bytes.subarray(4 + length) };
}

/** Whether a microphone frame may be sent (the server refuses others). */
export function micFrameOk(frame: Uint8Array): boolean {
  return frame.length > 0 && frame.length <= MIC_MAX_FRAME_BYTES && frame.length % 2 === 0;
}
