import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FaceDriver } from '../lipsync/face-driver';
import { SpeechOut } from './speech-out';

/** A browser synthesis with the given voices (headless Chromium has none). */
function synthWith(voices: Partial<SpeechSynthesisVoice>[]): SpeechSynthesis {
  return {
    getVoices: () => voices,
    speak: vi.fn(),
    cancel: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
  } as unknown as SpeechSynthesis;
}

const settings = { language: 'de-DE', gender: 'female' as const, wordsPerSecond: 3 };

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('SpeechOut', () => {
  it('tells once that it cannot speak the language when the browser has no voice for it', async () => {
    const onUnavailable = vi.fn();
    const speech = new SpeechOut(
      new FaceDriver(),
      settings,
      { onUnavailable },
      synthWith([{ name: 'Samantha', lang: 'en-US', localService: true }]),
    );
    const first = speech.say('Guten Tag.');
    await vi.advanceTimersByTimeAsync(10_000);
    await first;
    const second = speech.say('Wie geht es?');
    await vi.advanceTimersByTimeAsync(10_000);
    await second;
    expect(onUnavailable).toHaveBeenCalledTimes(1);
    expect(onUnavailable).toHaveBeenCalledWith('no-voice');
  });

  it('says nothing about voices while the speaker is off (the user chose silence)', async () => {
    const onUnavailable = vi.fn();
    const speech = new SpeechOut(new FaceDriver(), settings, { onUnavailable }, synthWith([]));
    speech.setSpeaker(false);
    const done = speech.say('Guten Tag.');
    await vi.advanceTimersByTimeAsync(10_000);
    await done;
    expect(onUnavailable).not.toHaveBeenCalled();
  });

  it('ends every utterance it started, marking the ones cut short as interrupted', async () => {
    const ends: [string, boolean][] = [];
    const starts: string[] = [];
    const speech = new SpeechOut(
      new FaceDriver(),
      settings,
      { onStart: (t) => starts.push(t), onEnd: (t, i) => ends.push([t, i.interrupted]) },
      synthWith([]),
    );
    void speech.say('Eins zwei drei.');
    void speech.say('Vier.');
    await vi.advanceTimersByTimeAsync(700);
    expect(starts).toEqual(['Eins zwei drei.']);
    speech.cancel();
    await vi.advanceTimersByTimeAsync(10);
    expect(ends).toEqual([['Eins zwei drei.', true]]);
    void speech.say('Fünf.');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(ends).toEqual([
      ['Eins zwei drei.', true],
      ['Fünf.', false],
    ]);
  });
});
