import { describe, expect, it } from 'vitest';
import * as shared from '@parla/shared/audio-frames';
import { AUDIO_HEADER_MAX_BYTES, MIC_MAX_FRAME_BYTES, micFrameOk, readAudioFrame } from './audio-frame-reader';

const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
function frame(headerBytes: Uint8Array, audio = new Uint8Array([1, 2])): Uint8Array {
  const out = new Uint8Array(4 + headerBytes.length + audio.length);
  new DataView(out.buffer).setUint32(0, headerBytes.length, false);
  out.set(headerBytes, 4);
  out.set(audio, 4 + headerBytes.length);
  return out;
}

describe("The player's audio frame reader agrees with the shared codec", () => {
  it('has the same limits', () => {
    expect(AUDIO_HEADER_MAX_BYTES).toBe(shared.AUDIO_HEADER_MAX_BYTES);
    expect(MIC_MAX_FRAME_BYTES).toBe(shared.MIC_MAX_FRAME_BYTES);
  });

  it('reads what encodeAudioFrame writes, timings included', () => {
    const header = {
      turnId: 't1',
      seq: 3,
      format: 'pcm16' as const,
      sampleRate: 24000,
      words: [{ word: 'hi', start: 0, end: 0.2 }],
      visemes: [{ viseme: 'aa' as const, start: 0, end: 0.1 }],
      last: true,
    };
    const bytes = shared.encodeAudioFrame(header, new Uint8Array([9, 8, 7, 6]));
    expect(readAudioFrame(bytes)).toEqual(shared.decodeAudioFrame(bytes));
    expect(readAudioFrame(bytes.slice().buffer)).toMatchObject({ ok: true, header, audio: new Uint8Array([9, 8, 7, 6]) });
  });

  const bad: [string, Uint8Array][] = [
    ['too short', new Uint8Array([0, 0])],
    ['a zero header length', new Uint8Array([0, 0, 0, 0, 1])],
    ['a header longer than the frame', new Uint8Array([0, 0, 0, 50, 123])],
    [
      'a header over the limit',
      (() => {
        const b = new Uint8Array(8);
        new DataView(b.buffer).setUint32(0, AUDIO_HEADER_MAX_BYTES + 1);
        return b;
      })(),
    ],
    ['a header that is not JSON', frame(new TextEncoder().encode('{"turnId":'))],
    ['invalid UTF-8', frame(new Uint8Array([0xff, 0xfe]))],
    ['a header that is an array', frame(json([1]))],
    ['no turn id', frame(json({ seq: 0, format: 'pcm16' }))],
    ['a negative seq', frame(json({ turnId: 't', seq: -1, format: 'pcm16' }))],
    ['an unknown format', frame(json({ turnId: 't', seq: 0, format: 'flac' }))],
    ['a sample rate that is text', frame(json({ turnId: 't', seq: 0, format: 'pcm16', sampleRate: '16000' }))],
    ['words without times', frame(json({ turnId: 't', seq: 0, format: 'pcm16', words: [{ word: 'x' }] }))],
    ['visemes that are not a list', frame(json({ turnId: 't', seq: 0, format: 'pcm16', visemes: 'aa' }))],
  ];
  it.each(bad)('refuses a frame with %s, as the shared codec does', (_name, bytes) => {
    const mine = readAudioFrame(bytes);
    expect(mine.ok).toBe(false);
    expect(mine).toEqual(shared.decodeAudioFrame(bytes));
  });

  it('sends microphone frames the server accepts only', () => {
    for (const f of [new Uint8Array(0), new Uint8Array(3), new Uint8Array(MIC_MAX_FRAME_BYTES + 2), new Uint8Array(2048)]) {
      expect(micFrameOk(f)).toBe(shared.micFrameProblem(f) === null);
    }
  });
});
