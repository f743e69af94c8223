import { describe, expect, it } from 'vitest';
import { FRAME_MS, MAX_BEHIND_FRAMES, MAX_EARLY_FRAMES, MicFrames, type MicSink } from './mic-frames';
import { Segmenter } from './segmenter';
import { DEFAULT_VAD, segmenterOptions } from './vad-options';

/** A frame the fake detector calls speech (first sample 1) or silence (0). */
const frame = (speech: boolean) => Float32Array.from({ length: 512 }, (_, i) => (i === 0 && speech ? 1 : 0));
const probability = (f: Float32Array) => Promise.resolve(f[0]!);

function setUp(judgeMs = 0) {
  let clock = 1000;
  const edges: { event: 'start' | 'end'; atMs: number; judgedAt: number }[] = [];
  let bytes = 0;
  const sink: MicSink = {
    audio: (pcm) => (bytes += pcm.length),
    speech: (event, atMs) => edges.push({ event, atMs, judgedAt: clock }),
  };
  const frames = new MicFrames(new Segmenter(segmenterOptions(DEFAULT_VAD, FRAME_MS)), sink, () => clock);
  let judged = 0;
  /** The detector; each frame takes judgeMs of the page's clock. */
  const detector = (f: Float32Array) => {
    clock += judgeMs;
    judged++;
    return probability(f);
  };
  /** The capture posts one frame every 32 ms of the page's clock. */
  const say = (speech: boolean, count: number) => {
    for (let i = 0; i < count; i++) {
      clock += FRAME_MS;
      frames.push(frame(speech));
    }
  };
  /** Lets every task run until the frames said are all judged. */
  const settle = async (target = count()) => {
    for (let i = 0; i < 1000 && judged < target; i++) await new Promise((resolve) => setTimeout(resolve, 0));
  };
  let said = 0;
  const count = () => said;
  const sayCounted = (speech: boolean, n: number) => {
    said += n;
    say(speech, n);
  };
  return { frames, detector, say: sayCounted, settle, edges, bytes: () => bytes, judged: () => judged };
}

describe('MicFrames', () => {
  it('times a sentence judged in a burst by when it was said, not when the detector got to it', async () => {
    const mic = setUp();
    // 0.5 s of silence, 4 s of words, 1 s of silence, all said while the detector loads.
    mic.say(false, 16);
    mic.say(true, 125);
    mic.say(false, 31);
    mic.frames.ready(mic.detector);
    await mic.settle();

    expect(mic.edges.map((e) => e.event)).toEqual(['start', 'end']);
    const [start, end] = mic.edges;
    // Judged at the same moment, but 125 frames of words plus the 0.55 s silence that ends them
    // (17 frames) lie between the two edges, less the 2 frames that confirm the start.
    expect(start!.judgedAt).toBe(end!.judgedAt);
    expect(end!.atMs - start!.atMs).toBe((125 + 17 - 2) * FRAME_MS);
    // The start is stamped at its frame: 16 silent frames and 2 of words after the first began.
    expect(start!.atMs).toBe(1000 + 18 * FRAME_MS);
    // The prefix padding (0.5 s) and the words went out as audio.
    expect(mic.bytes()).toBeGreaterThanOrEqual((125 + 16) * 512 * 2);
  });

  it('keeps counting the frames it cannot keep while the detector loads, so later edges stay on time', async () => {
    const mic = setUp();
    // 12 s of silence while loading: only the first 10 s are kept, the clock runs on.
    mic.say(false, 375);
    mic.frames.ready(mic.detector);
    mic.say(true, 10);
    await mic.settle(MAX_EARLY_FRAMES + 10);
    expect(mic.judged()).toBe(MAX_EARLY_FRAMES + 10);
    expect(mic.edges[0]).toMatchObject({ event: 'start', atMs: 1000 + 377 * FRAME_MS });
  });

  it('lets the page go on (a transcript, the chat) while it catches up with frames kept or queued', async () => {
    // A loaded machine: each frame takes 10 ms to judge; 10 s of words and silence are waiting.
    const mic = setUp(10);
    mic.say(false, 16);
    mic.say(true, 125);
    mic.say(false, 172);
    mic.frames.ready(mic.detector);
    // A message that comes meanwhile (the server's transcript) runs within a slice, not after
    // every frame before it.
    let judgedWhenItRan = -1;
    setTimeout(() => (judgedWhenItRan = mic.judged()), 0);
    await mic.settle(MAX_EARLY_FRAMES);
    expect(judgedWhenItRan).toBeGreaterThanOrEqual(0);
    expect(judgedWhenItRan).toBeLessThan(10);
    expect(mic.judged()).toBe(MAX_EARLY_FRAMES);
    expect(mic.edges.map((e) => e.event)).toEqual(['start', 'end']);
  });

  it('falls at most 30 s behind a detector too slow to keep up, dropping the oldest frames', async () => {
    const mic = setUp();
    let release: () => void = () => undefined;
    // A detector stuck on its first frame while 40 s of audio arrive.
    const stuck = (f: Float32Array) =>
      new Promise<number>((resolve) => {
        release = () => resolve(f[0]!);
      });
    mic.frames.ready(stuck);
    const warn = console.warn;
    const warnings: string[] = [];
    console.warn = (m: string) => warnings.push(m);
    try {
      mic.say(false, 1250);
    } finally {
      console.warn = warn;
    }
    // The frames came in one go (no judging task ran between them): the queue kept the newest
    // MAX_BEHIND_FRAMES.
    expect(mic.frames.dropped).toBe(1250 - MAX_BEHIND_FRAMES);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('30 s behind');
    release();
  });
});
