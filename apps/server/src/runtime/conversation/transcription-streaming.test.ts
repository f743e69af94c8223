// Transcription Streaming on the server side (issue 13 item 4): the user's interim transcripts
// (a speech engine's partial results) reach the player only when the avatar streams; final
// transcripts always do. An avatar without settings keeps the old behaviour (everything).
import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '@parla/shared/schemas/conversation';
import { NO_SETTINGS } from '../avatar-settings';
import type { Engine, EngineEvent } from '../types';
import { TurnLoop } from './turn-loop';

/** A listening engine: it hears "hel", then "hello" (final), through the host. */
function hearingEngine(): Engine & { hear(): void; host?: ReturnType<TurnLoop['host']> } {
  const e = {
    kind: 'pipeline' as const,
    host: undefined as ReturnType<TurnLoop['host']> | undefined,
    hear() {
      e.host!.transcript('hel', false);
      e.host!.transcript('hello', true);
    },
    async *turn(): AsyncIterable<EngineEvent> {},
    async close() {},
  };
  return e;
}

function transcripts(settings: typeof NO_SETTINGS | undefined) {
  const frames: ServerMessage[] = [];
  const said: string[] = [];
  const l = new TurnLoop(
    { id: 'a', ownerId: 'o', retrieval: null, settings },
    { send: (m) => void frames.push(m), sendBinary() {} },
    { replyFinished() {}, speakingChanged() {}, said: (role, text) => void said.push(`${role}:${text}`) },
    {
      retriever: { retrieve: async () => [] },
      log: { info() {}, warn() {}, error() {} },
      now: () => new Date(0),
    },
  );
  const engine = hearingEngine();
  engine.host = l.host();
  l.use(engine, false);
  engine.hear();
  return { texts: frames.filter((f) => f.type === 'transcript').map((f) => `${f.text}${f.final ? '.' : '…'}`), said };
}

describe('Transcription Streaming', () => {
  it('sends interim transcripts only when the avatar streams; final ones always', () => {
    expect(transcripts({ ...NO_SETTINGS, transcriptionStreaming: true }).texts).toEqual(['hel…', 'hello.']);
    expect(transcripts({ ...NO_SETTINGS, transcriptionStreaming: false }).texts).toEqual(['hello.']);
  });

  it('keeps sending everything for an avatar without settings', () => {
    expect(transcripts(undefined).texts).toEqual(['hel…', 'hello.']);
  });
});
