import { describe, expect, it } from 'vitest';
import { Resampler } from './resampler';
import { floatFromPcm16, pcm16FromFloat } from './pcm16';

const tone = (rate: number, hz: number, seconds: number) =>
  Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) => 0.5 * Math.sin((2 * Math.PI * hz * i) / rate));

describe('Resampler', () => {
  it('turns one second at 48 kHz into 16 kHz frames of 512 samples, whatever the block size', () => {
    const input = tone(48000, 440, 1.024);
    const whole = new Resampler(48000).push(input);
    const inBlocks = new Resampler(48000);
    const blocks: Float32Array[] = [];
    for (let i = 0; i < input.length; i += 128) blocks.push(...inBlocks.push(input.subarray(i, i + 128)));
    expect(whole).toHaveLength(32);
    expect(blocks).toHaveLength(32);
    expect(whole.every((f) => f.length === 512)).toBe(true);
    expect(Array.from(blocks[5]!)).toEqual(Array.from(whole[5]!));
  });

  it('keeps a 440 Hz tone at 440 Hz from 44.1 kHz (zero crossings per second)', () => {
    const frames = new Resampler(44100).push(tone(44100, 440, 2));
    const out = new Float32Array(frames.length * 512);
    frames.forEach((f, i) => out.set(f, i * 512));
    let crossings = 0;
    for (let i = 1; i < out.length; i++) if (out[i - 1]! < 0 !== out[i]! < 0) crossings++;
    const seconds = out.length / 16000;
    expect(crossings / seconds / 2).toBeGreaterThan(430);
    expect(crossings / seconds / 2).toBeLessThan(450);
  });

  it('damps a tone above the 8 kHz limit instead of folding it back at full level', () => {
    const frames = new Resampler(48000).push(tone(48000, 15000, 0.5));
    const peak = Math.max(...frames.flatMap((f) => Array.from(f, Math.abs)));
    expect(peak).toBeLessThan(0.2);
  });

  it('repeats samples when the input is slower than 16 kHz', () => {
    const frames = new Resampler(8000).push(new Float32Array(512).fill(0.25));
    expect(frames).toHaveLength(2);
    expect(frames[1]![511]).toBeCloseTo(0.25);
  });

  it('refuses a rate of zero', () => {
    expect(() => new Resampler(0)).toThrow();
  });
});

describe('PCM16', () => {
  it('writes little-endian samples, clips beyond ±1 and reads them back', () => {
    const bytes = pcm16FromFloat([Float32Array.from([0, 1, -1, 2, -0.5])]);
    expect(bytes).toHaveLength(10);
    const view = new DataView(bytes.buffer);
    expect(view.getInt16(2, true)).toBe(32767);
    expect(view.getInt16(4, true)).toBe(-32768);
    expect(view.getInt16(6, true)).toBe(32767);
    expect(Array.from(floatFromPcm16(bytes))).toEqual([0, 1, -1, 1, -0.5]);
  });
});
