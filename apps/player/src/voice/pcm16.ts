// Float samples (-1..1) → PCM16 little-endian bytes, the microphone frames' format (decision 611).

/** Converts and concatenates frames; samples beyond ±1 are clipped. */
export function pcm16FromFloat(frames: readonly Float32Array[]): Uint8Array<ArrayBuffer> {
  const total = frames.reduce((n, f) => n + f.length, 0);
  const bytes = new Uint8Array(total * 2);
  const view = new DataView(bytes.buffer);
  let at = 0;
  for (const frame of frames) {
    for (let i = 0; i < frame.length; i++) {
      const s = Math.max(-1, Math.min(1, frame[i]!));
      view.setInt16(at, s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff), true);
      at += 2;
    }
  }
  return bytes;
}

/** PCM16 little-endian bytes → float samples (the server's pcm16 reply chunks). */
export function floatFromPcm16(bytes: Uint8Array): Float32Array<ArrayBuffer> {
  const count = Math.floor(bytes.byteLength / 2);
  const view = new DataView(bytes.buffer, bytes.byteOffset, count * 2);
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    const s = view.getInt16(i * 2, true);
    out[i] = s < 0 ? s / 0x8000 : s / 0x7fff;
  }
  return out;
}
