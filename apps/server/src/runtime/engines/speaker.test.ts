// The speaking half with the embedded voice (real worker processes): a reply cut while its
// sentences wait for a worker ends quietly, and a sentence whose synthesis fails while the brain
// still streams is reported at the end, never as an unhandled rejection (which ends the server).
import { afterAll, describe, expect, it } from 'vitest';
import type { EngineDeps, EngineEvent } from '../types';
import { embeddedTts } from './embedded/embedded-tts';
import { EmbeddedVoicePool } from './embedded/voice-pool';
import { spokenTurn } from './speaker';

const pool = new EmbeddedVoicePool({ workers: 1 });
afterAll(() => pool.close());
const deps = { voices: pool } as unknown as Pick<EngineDeps, 'outbound' | 'voices'>;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function* brain(parts: string[], pauseMs: number): AsyncIterable<EngineEvent> {
  for (const text of parts) {
    yield { type: 'delta', text };
    await wait(pauseMs);
  }
}

describe('speaking with the embedded voice', () => {
  it('speaks each sentence as audio with visemes, in order, after the deltas that complete it', async () => {
    const events: EngineEvent[] = [];
    for await (const ev of spokenTurn(brain(['Hello there. ', 'How are you?'], 0), embeddedTts('slt'), deps, new AbortController().signal))
      events.push(ev);
    const audio = events.filter((e) => e.type === 'audio');
    expect(audio.length).toBe(2);
    expect(audio.every((a) => a.type === 'audio' && a.visemes && a.visemes.length > 3)).toBe(true);
    expect(events.findIndex((e) => e.type === 'audio')).toBeGreaterThan(0);
  }, 30_000);

  it('a reply cut while its sentences still wait for the worker ends quietly, its waiting sentences never spoken', async () => {
    const ac = new AbortController();
    const events: EngineEvent[] = [];
    // Cut when the first sentence is heard (not after a fixed time: a warm worker on a quiet
    // machine can speak every sentence within any delay chosen here).
    const turn = (async () => {
      for await (const ev of spokenTurn(
        brain(['This first sentence keeps the only worker busy for a while. ', 'Second. ', 'Third. ', 'Fourth.'], 30),
        embeddedTts('rms'),
        deps,
        ac.signal,
      )) {
        events.push(ev);
        if (ev.type === 'audio') ac.abort();
      }
    })();
    await turn;
    await wait(500);
    expect(events.filter((e) => e.type === 'audio').length).toBe(1);
  }, 30_000);

  it('a sentence that cannot be spoken while the brain still streams fails the turn at its end, not the process', async () => {
    const noVoice = {} as Pick<EngineDeps, 'outbound' | 'voices'>;
    const events: EngineEvent[] = [];
    const run = async () => {
      for await (const ev of spokenTurn(
        brain(['First. ', 'and more ', 'text.'], 100),
        embeddedTts('slt'),
        noVoice,
        new AbortController().signal,
      ))
        events.push(ev);
    };
    await expect(run()).rejects.toThrow(/not available/);
    expect(events.filter((e) => e.type === 'delta').length).toBe(3);
  });
});
