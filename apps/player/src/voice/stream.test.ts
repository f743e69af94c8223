import { describe, expect, it } from 'vitest';
import { ChunkSchedule, LEAD_SECONDS } from './schedule';
import { StreamMouth, chunkCues } from './stream-mouth';

describe('ChunkSchedule', () => {
  it('plays chunks back to back without gaps while they arrive in time', () => {
    const s = new ChunkSchedule();
    const a = s.place(10, 0.5);
    const b = s.place(10.1, 0.25);
    const c = s.place(10.2, 0.5);
    expect(a).toBeCloseTo(10 + LEAD_SECONDS);
    expect(b).toBeCloseTo(a + 0.5);
    expect(c).toBeCloseTo(b + 0.25);
    expect(s.end).toBeCloseTo(c + 0.5);
  });

  it('starts a little ahead of now when the stream ran dry, and anew after a reset', () => {
    const s = new ChunkSchedule();
    s.place(1, 0.2);
    expect(s.place(5, 0.2)).toBeCloseTo(5 + LEAD_SECONDS);
    s.place(5.1, 3);
    s.reset();
    expect(s.place(5.2, 0.1)).toBeCloseTo(5.2 + LEAD_SECONDS);
  });
});

describe('Lips of streamed audio', () => {
  const level = { viseme: () => 'aa' as const };

  it("places each chunk's visemes at the chunk's start on the audio clock", () => {
    let now = 0;
    const mouth = new StreamMouth(() => now, level);
    mouth.add(
      2,
      1,
      chunkCues(
        {
          visemes: [
            { viseme: 'O', start: 0.1, end: 0.3 },
            { viseme: 'PP', start: 0.3, end: 0.4 },
          ],
        },
        'en',
      ),
    );
    const at = (t: number) => ((now = t), mouth.viseme(0));
    expect([at(1), at(2.05), at(2.2), at(2.35), at(2.6), at(3.5)]).toEqual(['sil', 'sil', 'O', 'PP', 'sil', 'sil']);
  });

  it("spells the words into visemes within each word's time when there are no visemes", () => {
    const cues = chunkCues({ words: [{ word: 'hello', start: 0.5, end: 1 }] }, 'en')!;
    expect(cues.length).toBeGreaterThan(2);
    expect(cues[0]!.start).toBeCloseTo(0.5);
    expect(cues.at(-1)!.end).toBeCloseTo(1);
    expect(cues.some((c) => c.viseme !== 'sil')).toBe(true);
  });

  it("follows the audio's level for a chunk without timings", () => {
    let now = 0.5;
    const mouth = new StreamMouth(() => now, level);
    mouth.add(0, 1, chunkCues({}, 'en'));
    expect(mouth.viseme(0)).toBe('aa');
    now = 1.5;
    expect(mouth.viseme(0)).toBe('sil');
  });

  it('reads the level from the decoded samples when the audio context does not run (no output device)', () => {
    let now = 0.25;
    const rate = 16000;
    const data = new Float32Array(rate);
    for (let i = 0; i < rate / 2; i++) data[i] = 0.5 * Math.sin((2 * Math.PI * 300 * i) / rate);
    const mouth = new StreamMouth(
      () => now,
      level,
      () => false,
    );
    mouth.add(0, 1, chunkCues({}, 'en'), { data, rate });
    expect(mouth.viseme(0)).not.toBe('sil');
    now = 0.75;
    expect(mouth.viseme(0)).toBe('sil');
  });
});
