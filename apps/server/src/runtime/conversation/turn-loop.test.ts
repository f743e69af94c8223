// The turn loop on its own: the echo engine, a sink that keeps the frames, a retriever over a
// fixed list. No socket, no database, no runtime — the point of the split.
import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '@parla/shared/schemas/conversation';
import { EchoEngine } from '../engines/echo';
import type { ReplyFinished } from './reply';
import { TurnLoop } from './turn-loop';

function loop(retrieval: { collectionIds: string[]; topK: number } | null = null) {
  const frames: ServerMessage[] = [];
  const hook: { onFrame?: (m: ServerMessage) => void } = {};
  const finished: ReplyFinished[] = [];
  const speaking: boolean[] = [];
  const silent = { info() {}, warn() {}, error() {} };
  const sink = {
    send: (m: ServerMessage) => {
      frames.push(m);
      hook.onFrame?.(m);
    },
    sendBinary: () => undefined,
  };
  const listener = { replyFinished: (r: ReplyFinished) => void finished.push(r), speakingChanged: (v: boolean) => void speaking.push(v) };
  const l = new TurnLoop({ id: 'a', ownerId: 'o', retrieval }, sink, listener, {
    retriever: { retrieve: async () => [{ text: 'Opening hours: 9 to 5.', source: 'hours.txt', itemId: 'i1' }] },
    log: silent,
    now: () => new Date(0),
  });
  l.use(new EchoEngine(), false);
  const done = (n: number) => expect.poll(() => frames.filter((f) => f.type === 'assistant_done').length).toBe(n);
  return { l, frames, finished, speaking, done, hook };
}

describe('the turn loop', () => {
  it('answers queued messages one after the other through the sink, with their sources, and reports each reply', async () => {
    const { l, frames, finished, speaking, done } = loop({ collectionIds: ['c1'], topK: 3 });
    l.userText('hello there');
    await done(1);
    const first = frames.find((f) => f.type === 'assistant_done');
    expect(first).toMatchObject({ text: 'hello there', sources: [{ name: 'hours.txt', itemId: 'i1' }] });
    expect(frames.map((f) => f.type)).toEqual(['state', 'state', 'assistant_delta', 'assistant_delta', 'assistant_done', 'state']);
    expect(finished).toHaveLength(1);
    expect(finished[0]!.interrupted).toBe(false);
    expect(speaking).toEqual([true, false]);
  });

  it('an interrupt cuts the reply being given; the next message is answered in full', async () => {
    const { l, frames, finished, done, hook } = loop();
    hook.onFrame = (m) => {
      if (m.type !== 'assistant_delta') return;
      hook.onFrame = undefined;
      l.interrupt();
    };
    l.userText('one two three four five six seven eight');
    await done(1);
    expect(frames.find((f) => f.type === 'assistant_done')).toMatchObject({ text: 'one ', interrupted: true });
    expect(finished[0]!.interrupted).toBe(true);
    l.userText('next');
    await done(2);
    expect(frames.filter((f) => f.type === 'assistant_done').at(-1)).toMatchObject({ text: 'next' });
  });

  it('after stop, queued messages get no reply and nothing more is said', async () => {
    const { l, frames } = loop();
    l.stop();
    l.userText('anyone?');
    await new Promise((r) => setTimeout(r, 20));
    expect(frames).toEqual([]);
  });
});
