import { describe, expect, it } from 'vitest';
import { MIC_MAX_FRAME_BYTES, decodeAudioFrame, encodeAudioFrame, micFrameProblem } from './audio-frames';

describe('binary audio frames of the conversation socket', () => {
  it('carries a header and the audio bytes through encode and decode', () => {
    const audio = new Uint8Array([1, 2, 3, 4]);
    const frame = encodeAudioFrame(
      { turnId: 't1', seq: 0, format: 'pcm16', sampleRate: 24000, words: [{ word: 'hi', start: 0, end: 0.2 }], last: true },
      audio,
    );
    const decoded = decodeAudioFrame(frame.buffer as ArrayBuffer);
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    expect(decoded.header).toMatchObject({ turnId: 't1', seq: 0, format: 'pcm16', sampleRate: 24000, last: true });
    expect([...decoded.audio]).toEqual([1, 2, 3, 4]);
  });

  it('gives a reason for a short frame, a bad length, a header that is not JSON and a wrong header', () => {
    expect(decodeAudioFrame(new Uint8Array([0, 0]))).toEqual({ ok: false, error: 'Audio frame too short' });
    expect(decodeAudioFrame(new Uint8Array([0, 0, 0, 9, 1]))).toMatchObject({ ok: false, error: 'Audio frame header length is invalid' });
    const notJson = new Uint8Array([0, 0, 0, 2, 0x7b, 0x7b]);
    expect(decodeAudioFrame(notJson)).toMatchObject({ error: 'Audio frame header is not JSON' });
    const wrong = encodeAudioFrame({ turnId: 't', seq: 0, format: 'pcm16' }, new Uint8Array());
    wrong[4 + 2] = 'x'.charCodeAt(0); // {"xurnId":…}
    expect(decodeAudioFrame(wrong)).toMatchObject({ error: 'Audio frame header does not match its schema' });
  });

  it('accepts microphone frames of even length up to the limit only', () => {
    expect(micFrameProblem(new Uint8Array(640))).toBeNull();
    expect(micFrameProblem(new Uint8Array(0))).toBe('Empty audio frame');
    expect(micFrameProblem(new Uint8Array(3))).toMatch(/even/);
    expect(micFrameProblem(new Uint8Array(MIC_MAX_FRAME_BYTES + 2))).toMatch(/at most/);
  });
});
