import { describe, expect, it } from 'vitest';
import { alignmentCues, cueAt, spreadViseme, textTimeline } from './alignment';
import { LevelMouth, brightness } from './level';
import { wordToVisemes } from './letter-to-sound';

describe('alignment → visemes', () => {
  const chars = [...'Hi, Bob'];
  const alignment = { chars, charStartTimesMs: chars.map((_, i) => i * 100), charDurationsMs: chars.map(() => 100) };

  it("spreads each word's visemes over its characters' span and rests between words", () => {
    const cues = alignmentCues(alignment, 10);
    const hi = wordToVisemes('Hi');
    const bob = wordToVisemes('Bob');
    expect(cues.filter((c) => c.viseme !== 'sil').map((c) => c.viseme)).toEqual([...hi, ...bob]);
    // "Hi" spans 0–200 ms, "Bob" 400–700 ms, from the piece's start at 10 s.
    expect(cues[0]!.start).toBeCloseTo(10);
    const bobStart = cues.find((c) => c.viseme === bob[0] && c.start >= 10.3)!;
    expect(bobStart.start).toBeCloseTo(10.4);
    expect(cues.at(-1)!.end).toBeCloseTo(10.7);
    expect(cues.find((c) => c.viseme === 'sil')).toMatchObject({ start: expect.closeTo(10.2, 5), end: expect.closeTo(10.4, 5) });
    expect(cueAt(cues, 10.05)).toBe(hi[0]);
    expect(cueAt(cues, 10.3)).toBe('sil');
    expect(cueAt(cues, 10.69)).toBe(bob.at(-1));
    expect(cueAt(cues, 10.8)).toBe('sil');
    expect(cueAt(cues, 9)).toBe('sil');
  });

  it('spells digits and ignores punctuation and misaligned tails', () => {
    const cues = alignmentCues({ chars: ['4', '!', 'x'], charStartTimesMs: [0, 300], charDurationsMs: [300, 50] });
    expect(cues.map((c) => c.viseme)).toEqual(wordToVisemes('four'));
    expect(cues.at(-1)!.end).toBeCloseTo(0.3);
  });

  it("stretches a reply's text over the audio received", () => {
    const t = textTimeline('Hello there friend');
    const seen = new Set<string>();
    for (let x = 0; x < 4; x += 0.02) seen.add(spreadViseme(t, 0, 4, x));
    expect(seen.size).toBeGreaterThan(4);
    expect(spreadViseme(t, 0, 4, 4.1)).toBe('sil');
    expect(spreadViseme(t, 1, 1, 1)).toBe('sil');
  });
});

describe('LevelMouth', () => {
  it('rests on silence and opens with the level', () => {
    let level = 0;
    const m = new LevelMouth(
      () => level,
      () => new Uint8Array(100),
    );
    expect(m.viseme(0)).toBe('sil');
    level = 0.8;
    expect(m.viseme(0)).not.toBe('sil');
    expect(brightness(new Uint8Array(100))).toBe(0);
  });
});
