import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SpeechIn } from './speech-in';

/** A recognition that fails the way Chromium does with no microphone: an error, then an end. */
function failingRecognition(error: string | null) {
  const made = { starts: 0 };
  class Rec {
    lang = '';
    continuous = false;
    interimResults = false;
    onresult: ((e: unknown) => void) | null = null;
    onerror: ((e: { error: string }) => void) | null = null;
    onend: (() => void) | null = null;
    start() {
      made.starts++;
      setTimeout(() => {
        if (error) this.onerror?.({ error });
        this.onend?.();
      }, 5);
    }
    stop() {}
    abort() {}
  }
  return { Rec, made };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('SpeechIn', () => {
  it('stops at once and says why when there is no microphone (audio-capture), with no restart', async () => {
    const { Rec, made } = failingRecognition('audio-capture');
    const onError = vi.fn();
    expect(new SpeechIn('en-US', Rec as never).start({ onText: vi.fn(), onError })).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(made.starts).toBe(1);
    expect(onError).toHaveBeenCalledWith('audio-capture');
  });

  it('backs off when sessions end at once without an error, and gives up after 3 restarts', async () => {
    const { Rec, made } = failingRecognition(null);
    const onError = vi.fn();
    new SpeechIn('en-US', Rec as never).start({ onText: vi.fn(), onError });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(made.starts).toBeLessThanOrEqual(4);
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('with a working microphone, says the recognition service is missing instead of blaming the microphone (issue 35)', async () => {
    for (const error of ['audio-capture', null]) {
      const { Rec } = failingRecognition(error);
      const onError = vi.fn();
      new SpeechIn('en-US', Rec as never, async () => true).start({ onText: vi.fn(), onError });
      await vi.advanceTimersByTimeAsync(10_000);
      expect(onError).toHaveBeenCalledWith('no-service');
    }
  });

  it('keeps listening through silences (no-speech) and stops when asked', async () => {
    const { Rec, made } = failingRecognition('no-speech');
    const onError = vi.fn();
    const listener = new SpeechIn('en-US', Rec as never);
    listener.start({ onText: vi.fn(), onError });
    await vi.advanceTimersByTimeAsync(300);
    expect(made.starts).toBe(2);
    listener.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(made.starts).toBe(2);
  });
});
