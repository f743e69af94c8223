import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EchoClient } from './echo-client';

/** A preview echo with its replies recorded. */
function listen() {
  const client = new EchoClient();
  const deltas: string[] = [];
  const done: string[] = [];
  void client.connect({
    onDelta: (_t: string, w: string) => deltas.push(w),
    onDone: (_t: string, text: string) => done.push(text),
  } as never);
  return { client, deltas, done };
}

describe('the preview echo', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('streams the message back word by word, in order, and ends with the whole text', async () => {
    const { client, deltas, done } = listen();
    client.sendText('one two three');
    await vi.advanceTimersByTimeAsync(25);
    expect(deltas).toEqual(['one']);
    await vi.advanceTimersByTimeAsync(200);
    expect(deltas.join('')).toBe('one two three');
    expect(done).toEqual(['one two three']);
  });

  it('on a page whose timers fire late (slow drawing) sends every word due at once, not one per timer', async () => {
    let clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => clock);
    const { client, deltas, done } = listen();
    client.sendText('ah ah ah ah ah ah ah ah.');
    clock = 2_000; // the first timer fires two seconds late
    await vi.advanceTimersByTimeAsync(25);
    expect(done).toEqual(['ah ah ah ah ah ah ah ah.']);
    expect(deltas).toHaveLength(15);
  });

  it('a new message or an interruption stops the reply in progress', async () => {
    const { client, deltas, done } = listen();
    client.sendText('first message here');
    await vi.advanceTimersByTimeAsync(25);
    client.interrupt();
    await vi.advanceTimersByTimeAsync(500);
    expect(deltas).toEqual(['first']);
    expect(done).toEqual([]);
  });
});
