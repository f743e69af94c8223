import { describe, expect, it, vi } from 'vitest';
import { wordToVisemes } from '../../lipsync/letter-to-sound';
import { AgentVoice, type VoiceContext } from './agent-voice';
import { Resampler } from './mic';
import { TenMessageAssembler } from './ten-messages';

/** Just enough Web Audio: a clock the test moves, buffers, sources that record when they start. */
function fakeContext() {
  const started: { at: number; stopped: boolean }[] = [];
  const node = () => ({ connect: vi.fn((n: unknown) => n), gain: { value: 1 } });
  const ctx = {
    currentTime: 0,
    state: 'running',
    destination: {},
    createGain: () => node(),
    createAnalyser: () => ({
      ...node(),
      fftSize: 0,
      frequencyBinCount: 8,
      getFloatTimeDomainData: (a: Float32Array) => a.fill(0),
      getByteFrequencyData: (a: Uint8Array) => a.fill(0),
    }),
    createBuffer: (_c: number, length: number) => ({ length, getChannelData: () => new Float32Array(length) }),
    createBufferSource: () => {
      const rec = { at: -1, stopped: false };
      started.push(rec);
      return { ...node(), buffer: null, start: (at: number) => (rec.at = at), stop: () => (rec.stopped = true) };
    },
    resume: vi.fn(async () => undefined),
    close: vi.fn(async () => undefined),
  };
  return { ctx: ctx as unknown as VoiceContext & { currentTime: number }, started };
}

describe('AgentVoice', () => {
  it('queues pieces back to back and follows their alignment', () => {
    const { ctx, started } = fakeContext();
    const onMouth = vi.fn();
    const voice = new AgentVoice(ctx, { onMouth });
    const second = new Float32Array(16000);
    voice.play(second, 16000, { chars: [...'Bob'], charStartTimesMs: [0, 100, 200], charDurationsMs: [100, 100, 100] });
    voice.play(second, 16000);
    expect(started.map((s) => s.at)).toEqual([0.05, 1.05]);
    expect(onMouth).toHaveBeenCalledWith(voice);
    expect(voice.visemeAt(0.06)).toBe(wordToVisemes('Bob')[0]);
    expect(voice.visemeAt(0.5)).toBe('sil');
    // The second piece has no alignment and the reply no text: the audio's energy (silence here).
    expect(voice.visemeAt(1.5)).toBe('sil');
  });

  it("spreads the reply's text over its audio when the pieces carry no alignment", () => {
    const { ctx } = fakeContext();
    const voice = new AgentVoice(ctx, { onMouth: vi.fn() });
    voice.text('Hello there, my friend');
    voice.play(new Float32Array(32000), 16000);
    const shapes = new Set<string>();
    for (let t = 0.05; t < 2.05; t += 0.02) shapes.add(voice.visemeAt(t));
    expect(shapes.size).toBeGreaterThan(4);
    expect(voice.visemeAt(2.1)).toBe('sil');
  });

  it('an interruption stops every piece and the mouth rests', () => {
    const { ctx, started } = fakeContext();
    const onMouth = vi.fn();
    const onSpeaking = vi.fn();
    const voice = new AgentVoice(ctx, { onMouth, onSpeaking });
    voice.play(new Float32Array(16000), 16000);
    voice.play(new Float32Array(16000), 16000);
    voice.stop();
    expect(started.every((s) => s.stopped)).toBe(true);
    expect(onMouth).toHaveBeenLastCalledWith(null);
    expect(onSpeaking).toHaveBeenLastCalledWith(false);
    expect(voice.isSpeaking).toBe(false);
  });

  it('a new reply starts after the audio ran dry and takes the next text', () => {
    const { ctx, started } = fakeContext();
    const voice = new AgentVoice(ctx, { onMouth: vi.fn() });
    voice.play(new Float32Array(1600), 16000);
    ctx.currentTime = 5;
    voice.text('Bob');
    voice.play(new Float32Array(16000), 16000);
    expect(started[1]!.at).toBeCloseTo(5.05);
    expect(voice.visemeAt(5.06)).toBe(wordToVisemes('Bob')[0]);
  });
});

describe('Resampler', () => {
  it('averages 48 kHz down to 16 kHz and keeps the count across calls', () => {
    const r = new Resampler(48000, 16000);
    expect(Array.from(r.push(Float32Array.from([0.3, 0.3, 0.3, 0.6, 0.6])))).toEqual([expect.closeTo(0.3, 5)]);
    expect(Array.from(r.push(Float32Array.from([0.6])))).toEqual([expect.closeTo(0.6, 5)]);
    const odd = new Resampler(44100, 16000);
    expect(Math.abs(odd.push(new Float32Array(44100)).length - 16000)).toBeLessThanOrEqual(1);
  });
});

describe('TenMessageAssembler', () => {
  const part = (id: string, i: number, n: number, content: string) => new TextEncoder().encode(`${id}|${i}|${n}|${content}`);
  const b64 = (o: unknown) => btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(o))));

  it("joins a message's parts, in any order, and tells the agent's words from the user's", () => {
    const a = new TenMessageAssembler(42);
    const body = b64({ text: 'Good morning', is_final: true, stream_id: 0, data_type: 'transcribe' });
    const [p1, p2] = [body.slice(0, 10), body.slice(10)];
    expect(a.push(part('m1', 2, 2, p2))).toBeNull();
    expect(a.push(part('m1', 1, 2, p1))).toEqual({ text: 'Good morning', final: true, role: 'agent' });
    expect(a.push(part('m2', 1, 1, b64({ text: 'hi', is_final: false, stream_id: 42 })))).toEqual({
      text: 'hi',
      final: false,
      role: 'user',
    });
    expect(a.push(part('m3', 1, 1, b64({ text: 'x', is_final: true, role: 'user', stream_id: 0 })))).toMatchObject({ role: 'user' });
  });

  it('ignores malformed messages and forgets stale parts', () => {
    const a = new TenMessageAssembler(1);
    expect(a.push(new TextEncoder().encode('nonsense'))).toBeNull();
    expect(a.push(part('m', 1, 1, 'not base64 json'))).toBeNull();
    expect(a.push(part('s', 1, 2, 'ab'), 0)).toBeNull();
    expect(a.push(part('s', 2, 2, 'cd'), 10_000)).toBeNull();
  });
});
