import { describe, expect, it } from 'vitest';
import { VISEMES } from '@parla/shared/visemes';
import { wordToVisemes } from './letter-to-sound';
import { buildTimeline, visemeAt, wordAtChar } from './timeline';
import { FaceDriver, TimelinePlayback } from './face-driver';
import { visemeForEnergy } from './energy';

describe('letter-to-sound', () => {
  it('closes the lips for p, b and m, touches the teeth for f and v', () => {
    expect(wordToVisemes('bump')).toEqual(['PP', 'U', 'PP']);
    expect(wordToVisemes('five')).toEqual(['FF', 'aa', 'I', 'FF']);
  });

  it('reads English digraphs and the silent final e', () => {
    expect(wordToVisemes('think')[0]).toBe('TH');
    expect(wordToVisemes('church')).toEqual(['CH', 'RR', 'CH']);
    expect(wordToVisemes('home')).toEqual(['O', 'U', 'PP']);
    expect(wordToVisemes('station')).toEqual(['SS', 'DD', 'aa', 'CH', 'nn']);
  });

  it('gives every language something to say: Latin, Cyrillic, Greek and other scripts', () => {
    expect(wordToVisemes('mañana', 'es-ES')).toEqual(['PP', 'aa', 'nn', 'I', 'aa', 'nn', 'aa']);
    expect(wordToVisemes('привет', 'ru-RU')).toEqual(['PP', 'RR', 'I', 'FF', 'E', 'DD']);
    expect(wordToVisemes('γεια', 'el-GR').length).toBeGreaterThan(2);
    const zh = wordToVisemes('你好', 'zh-CN');
    expect(zh.length).toBe(4);
    for (const v of zh) expect(VISEMES).toContain(v);
  });
});

describe('viseme timeline', () => {
  it('lasts about one word per 1/wps seconds, and ends at rest', () => {
    const text = 'The quick brown fox jumps over the lazy dog';
    const t = buildTimeline(text, { wordsPerSecond: 3 });
    expect(t.words.map((w) => w.text)).toEqual(text.split(' '));
    expect(t.duration).toBeGreaterThan(9 / 3);
    expect(t.duration).toBeLessThan(9 / 3 + 0.5);
    expect(t.cues.at(-1)!.viseme).toBe('sil');
    expect(visemeAt(t, t.duration + 0.01)).toBe('sil');
    expect(visemeAt(t, -1)).toBe('sil');
  });

  it('speaks faster at a higher rate', () => {
    const slow = buildTimeline('Hello there, how are you today?', { wordsPerSecond: 2 });
    const fast = buildTimeline('Hello there, how are you today?', { wordsPerSecond: 4 });
    expect(fast.duration).toBeLessThan(slow.duration);
  });

  it('has contiguous, increasing cues', () => {
    const t = buildTimeline('Pack my box with five dozen liquor jugs.');
    for (let i = 1; i < t.cues.length; i++) {
      expect(t.cues[i]!.start).toBeCloseTo(t.cues[i - 1]!.end, 9);
      expect(t.cues[i]!.end).toBeGreaterThan(t.cues[i]!.start);
    }
  });

  it('rests the mouth at commas and full stops', () => {
    const t = buildTimeline('Yes, no. Maybe');
    const rests = t.cues.filter((c) => c.viseme === 'sil' && c.end - c.start >= 0.2);
    expect(rests.length).toBe(2);
    expect(rests[1]!.end - rests[1]!.start).toBeGreaterThan(rests[0]!.end - rests[0]!.start);
    const pause = rests[1]!;
    expect(visemeAt(t, (pause.start + pause.end) / 2)).toBe('sil');
  });

  it('closes the lips while saying "map" and opens them for the vowel', () => {
    const t = buildTimeline('map');
    const seen = t.cues.map((c) => c.viseme);
    expect(seen).toEqual(['PP', 'aa', 'PP', 'sil', 'sil']);
    const aa = t.cues[1]!;
    expect(visemeAt(t, (aa.start + aa.end) / 2)).toBe('aa');
  });

  it('knows where each word starts in the text, for speech boundary events', () => {
    const text = 'Hi there, friend';
    const t = buildTimeline(text);
    expect(t.words.map((w) => w.charIndex)).toEqual([0, 3, 10]);
    expect(wordAtChar(t, 10)!.text).toBe('friend');
    expect(wordAtChar(t, 5)!.text).toBe('there');
  });

  it('reads digits', () => {
    expect(buildTimeline('Room 42').words.length).toBe(2);
    expect(buildTimeline('42').cues.length).toBeGreaterThan(4);
  });

  it('is empty for text with nothing to say', () => {
    expect(buildTimeline('   ...  ').duration).toBe(0);
  });
});

describe('face driver', () => {
  it('follows a timeline and returns to sil when it ends', () => {
    const driver = new FaceDriver();
    const seen: string[] = [];
    driver.onChange((v) => seen.push(v));
    const t = buildTimeline('Hello world');
    const playback = new TimelinePlayback(t, 1000);
    driver.use(playback);
    for (let ms = 1000; ms < 1000 + t.duration * 1000 + 50; ms += 16) driver.tick(ms);
    expect(seen.length).toBeGreaterThan(4);
    expect(seen.at(-1)).toBe('sil');
    expect(playback.finished(1000 + t.duration * 1000 + 1)).toBe(true);
  });

  it('shows a lip closure that a late frame stepped over, for that one frame', () => {
    const t = buildTimeline('map');
    const closure = t.cues.find((c) => c.viseme === 'PP')!;
    const p = new TimelinePlayback(t, 0);
    const before = closure.start - 0.01;
    expect(p.viseme(before * 1000)).not.toBe('PP');
    // The next frame comes 100 ms late, past the whole closure: the lips still close.
    const after = closure.end + 0.02;
    expect(visemeAt(t, after)).not.toBe('PP');
    expect(p.viseme(after * 1000)).toBe('PP');
    // Only for that frame; and frames on time show the timeline as it is.
    expect(p.viseme(after * 1000 + 16)).toBe(visemeAt(t, after + 0.016));
  });

  it('jumps to the word a boundary event names', () => {
    const t = buildTimeline('one two three four');
    const p = new TimelinePlayback(t, 0);
    p.sync(t.words[2]!.charIndex, 5000);
    expect(p.elapsed(5000)).toBeCloseTo(t.words[2]!.start, 6);
    expect(p.synced).toBe(true);
  });
});

describe('energy mouth', () => {
  it('rests on silence and opens wider when louder', () => {
    expect(visemeForEnergy(0.001, 0.5)).toBe('sil');
    expect(['SS', 'nn']).toContain(visemeForEnergy(0.03, 0.4));
    expect(['aa', 'O', 'I']).toContain(visemeForEnergy(0.3, 0.4));
  });
});
