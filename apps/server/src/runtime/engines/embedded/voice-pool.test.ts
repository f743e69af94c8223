// The embedded voice's workers are real child processes running Flite: what they say is audio
// (not silence) with visemes on its own clock; a worker that dies costs one piece, not the server;
// conversations are served in turn.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { embeddedSynthesize, embeddedTts } from './embedded-tts';
import { EmbeddedVoicePool, readWav } from './voice-pool';

const pools: EmbeddedVoicePool[] = [];
const pool = (workers: number) => {
  const p = new EmbeddedVoicePool({ workers });
  pools.push(p);
  return p;
};

afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

/** Root mean square of PCM16 (0 = silence). */
function rms(pcm: Buffer): number {
  let sum = 0;
  for (let i = 0; i + 1 < pcm.length; i += 2) sum += pcm.readInt16LE(i) ** 2;
  return Math.sqrt(sum / (pcm.length / 2));
}

describe('the embedded voice', () => {
  it('speaks a sentence as 16 kHz PCM that is not silence, with visemes and words that end with the audio', async () => {
    const spoken = await embeddedSynthesize(pool(1), embeddedTts('slt'), 'Hello there. How are you today?', 'c1');
    expect(spoken).toMatchObject({ format: 'pcm16', sampleRate: 16000 });
    const pcm = Buffer.from(spoken.audio, 'base64');
    const seconds = pcm.length / 2 / 16000;
    expect(seconds).toBeGreaterThan(1);
    expect(rms(pcm)).toBeGreaterThan(300);
    const visemes = spoken.visemes!;
    expect(new Set(visemes.map((v) => v.viseme)).size).toBeGreaterThan(5);
    expect(visemes.at(-1)!.end).toBeCloseTo(seconds, 1);
    expect(spoken.words!.map((w) => w.word)).toEqual(['Hello', 'there', 'How', 'are', 'you', 'today']);
  });

  it('speaks a 360-character token, which aborts Flite given whole, in pieces; a long text in pieces keeps one clock', async () => {
    const p = pool(1);
    const token = 'Zq9'.repeat(120);
    const spoken = await embeddedSynthesize(p, embeddedTts('slt'), token, 'c1');
    expect(Buffer.from(spoken.audio, 'base64').length).toBeGreaterThan(16000);
    const long = 'The quick brown fox jumps over the lazy dog, and then it runs away. '.repeat(20);
    const said = await embeddedSynthesize(p, embeddedTts('kal16'), long, 'c1');
    const seconds = Buffer.from(said.audio, 'base64').length / 2 / (said.sampleRate ?? 16000);
    expect(said.visemes!.at(-1)!.end).toBeCloseTo(seconds, 1);
    const starts = said.visemes!.map((v) => v.start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  }, 60_000);

  it('a worker that dies fails the piece it was saying; the next sentence is spoken by a new worker', async () => {
    const p = pool(1);
    await p.synthesize('Warm up.', 'kal16', 'c1');
    const [pid] = p.pids();
    const cut = p.synthesize('This sentence is long enough to be cut while it is being spoken by the worker.', 'rms', 'c1');
    process.kill(pid!, 'SIGKILL');
    await expect(cut).rejects.toThrow(/stopped/);
    const next = await p.synthesize('Still here.', 'kal16', 'c1');
    expect(next.pcm.length).toBeGreaterThan(1000);
    expect(p.pids()).not.toContain(pid);
  }, 30_000);

  it('leaves no files behind: a worker killed mid-piece and the workers ended by close() lose their directories', async () => {
    const root = mkdtempSync(join(tmpdir(), 'parla-voice-files-'));
    const p = new EmbeddedVoicePool({ workers: 1, filesRoot: root });
    await p.synthesize('Warm up.', 'kal16', 'c1');
    expect(readdirSync(root)).toHaveLength(1);
    const [pid] = p.pids();
    const cut = p.synthesize('This sentence is long enough to be cut while it is being spoken by the worker.', 'rms', 'c1');
    process.kill(pid!, 'SIGKILL');
    await expect(cut).rejects.toThrow(/stopped/);
    await p.synthesize('Still here.', 'kal16', 'c1');
    expect(readdirSync(root)).toHaveLength(1);
    await p.close();
    expect(readdirSync(root)).toEqual([]);
    rmSync(root, { recursive: true });
  }, 30_000);

  it("serves conversations in turn: one conversation's long reply does not hold back another's first sentence", async () => {
    const p = pool(1);
    await p.synthesize('Warm up.', 'kal16', 'a');
    const order: string[] = [];
    const long = Array.from({ length: 4 }, (_, i) =>
      p.synthesize(`Sentence ${i} of the long reply.`, 'kal16', 'a').then(() => order.push(`a${i}`)),
    );
    const other = p.synthesize('Hi.', 'kal16', 'b').then(() => order.push('b0'));
    await Promise.all([...long, other]);
    expect(order.indexOf('b0')).toBeLessThanOrEqual(2);
  }, 30_000);

  it('a cancelled piece that has not started is never synthesised', async () => {
    const p = pool(1);
    const busy = p.synthesize('The worker is busy with this.', 'kal16', 'a');
    const ac = new AbortController();
    const waiting = p.synthesize('Never said.', 'kal16', 'a', ac.signal);
    ac.abort();
    await expect(waiting).rejects.toThrow('cancelled');
    await busy;
  }, 30_000);

  it('reads only 16-bit mono PCM WAV files', () => {
    expect(() => readWav(Buffer.from('not a wav file at all'))).toThrow('not a WAV file');
    const h = Buffer.alloc(44);
    h.write('RIFF', 0);
    h.write('WAVE', 8);
    h.write('fmt ', 12);
    h.writeUInt32LE(16, 16);
    h.writeUInt16LE(1, 20);
    h.writeUInt16LE(2, 22);
    expect(() => readWav(h)).toThrow('not 16-bit mono PCM');
  });
});
