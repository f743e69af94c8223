import { describe, expect, it } from 'vitest';
import { Segmenter, type SegmentEvent } from './segmenter';
import { DEFAULT_VAD, segmenterOptions } from './vad-options';
import { EnergyVad } from './energy-vad';

const frame = (n: number) => new Float32Array(512).fill(n);
const run = (s: Segmenter, probs: number[]) => probs.flatMap((p, i) => s.push(frame(i), p));
const kinds = (events: SegmentEvent[]) => events.map((e) => (e.type === 'audio' ? `audio${e.frames.length}` : e.type));

describe('VAD option mapping', () => {
  it("turns the spec's defaults into frame counts of 32 ms", () => {
    expect(segmenterOptions(undefined, 32)).toEqual({
      positive: 0.5,
      negative: 0.35,
      minSpeechFrames: 2,
      minSilenceFrames: 17,
      prefixFrames: 16,
      maxSpeechFrames: 1875,
    });
  });

  it("follows the avatar's options and keeps at least one frame for speech and silence", () => {
    const o = segmenterOptions(
      { ...DEFAULT_VAD, activation_threshold: 0.1, min_speech_duration: 0, min_silence_duration: 0.2, prefix_padding_duration: 0 },
      32,
    );
    expect(o).toMatchObject({ positive: 0.1, negative: 0, minSpeechFrames: 1, minSilenceFrames: 6, prefixFrames: 0 });
  });

  it('ignores values that are not numbers or out of range', () => {
    const o = segmenterOptions({ activation_threshold: 7, min_silence_duration: -1, max_buffered_speech: Number.NaN }, 32);
    expect(o).toEqual(segmenterOptions(undefined, 32));
  });
});

describe('Segmenter', () => {
  const options = { positive: 0.5, negative: 0.35, minSpeechFrames: 2, minSilenceFrames: 3, prefixFrames: 2, maxSpeechFrames: 100 };

  it('starts after min speech, sends the prefix padding with it, and ends after min silence', () => {
    const s = new Segmenter(options);
    const events = run(s, [0, 0, 0, 0.9, 0.9, 0.9, 0.1, 0.1, 0.1, 0]);
    expect(kinds(events)).toEqual(['start', 'audio4', 'audio1', 'audio1', 'audio1', 'audio1', 'end']);
    const first = events[1] as { frames: Float32Array[] };
    expect(first.frames.map((f) => f[0])).toEqual([1, 2, 3, 4]);
  });

  it('takes a single loud frame for a click, not speech', () => {
    expect(run(new Segmenter(options), [0, 0.9, 0.1, 0, 0])).toEqual([]);
  });

  it('does not end on a pause shorter than min silence, nor on frames between the thresholds', () => {
    const events = run(new Segmenter(options), [0.9, 0.9, 0.1, 0.1, 0.9, 0.4, 0.4, 0.4, 0.4]);
    expect(events.some((e) => e.type === 'end')).toBe(false);
  });

  it('cuts an utterance longer than max buffered speech', () => {
    const s = new Segmenter({ ...options, maxSpeechFrames: 4 });
    const events = run(s, [0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9]);
    expect(kinds(events)).toEqual(['start', 'audio2', 'audio1', 'audio1', 'end', 'start', 'audio2', 'audio1']);
  });

  it('ends an utterance under way when the microphone stops', () => {
    const s = new Segmenter(options);
    run(s, [0.9, 0.9]);
    expect(s.flush()).toEqual([{ type: 'end' }]);
    expect(s.flush()).toEqual([]);
  });
});

describe('EnergyVad', () => {
  it('rates a voice well above a quiet room as speech and the room as silence', () => {
    const vad = new EnergyVad();
    const noise = () => Float32Array.from({ length: 512 }, () => (Math.random() - 0.5) * 0.004);
    for (let i = 0; i < 50; i++) vad.probability(noise());
    const voice = Float32Array.from({ length: 512 }, (_, i) => 0.3 * Math.sin(i / 5));
    expect(vad.probability(noise())).toBeLessThan(0.35);
    expect(vad.probability(voice)).toBeGreaterThan(0.5);
  });
});
