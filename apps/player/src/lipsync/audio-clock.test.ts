import { describe, expect, it } from 'vitest';
import { AudioClockMouth, timelineTimeForAudio } from './audio-clock';
import { buildTimeline } from './timeline';

describe('lips from audio with word timestamps', () => {
  const text = 'one two three';
  const timeline = buildTimeline(text);
  const timings = [
    { charIndex: 0, start: 0.2 },
    { charIndex: 4, start: 1.0 },
    { charIndex: 8, start: 2.5 },
  ];

  it('is at rest before the first word', () => {
    expect(timelineTimeForAudio(timeline, timings, 0.1)).toBe(-1);
    expect(new AudioClockMouth(timeline, timings, () => 0.1).viseme()).toBe('sil');
  });

  it('reads each word where the audio says it starts', () => {
    expect(timelineTimeForAudio(timeline, timings, 1.0)).toBeCloseTo(timeline.words[1]!.start, 9);
    expect(timelineTimeForAudio(timeline, timings, 2.55)).toBeCloseTo(timeline.words[2]!.start + 0.05, 9);
    // "three" starts with TH.
    expect(new AudioClockMouth(timeline, timings, () => 2.5 + 0.01).viseme()).toBe('TH');
  });
});
