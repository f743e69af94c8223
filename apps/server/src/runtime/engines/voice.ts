// Server speech around any brain (decision 612): the one speech path of the custom pipeline,
// Composite avatars (Echo, LLM, REST, Dialogflow) and Simple mode. The listener turns the
// player's microphone audio into user turns; the speaker speaks each sentence of the brain's
// answer as it arrives. Either half may be absent (the browser does that half).
import type { ConversationInfo, Engine, EngineDeps, EngineEvent, EngineHost, OpenInfo, SpeechConfig, TurnInput } from '../types';
import { randomUUID } from 'node:crypto';
import { UtteranceListener } from './listener';
import { spokenTurn } from './speaker';

export class VoiceEngine implements Engine {
  readonly kind: Engine['kind'];
  private readonly listener: UtteranceListener | null;
  /** This conversation, for the embedded voice's turn-taking between conversations. */
  private readonly speakerKey = randomUUID();

  constructor(
    private readonly brain: Engine,
    private readonly config: SpeechConfig,
    private readonly deps: EngineDeps,
    host: EngineHost,
    kind: Engine['kind'] = brain.kind,
  ) {
    this.kind = kind;
    this.listener = config.stt ? new UtteranceListener(config.stt, config.turn, deps, host) : null;
  }

  async open(info: ConversationInfo): Promise<OpenInfo | void> {
    // The embedded voice's workers compile Flite as the conversation opens (seconds on a busy
    // machine), not when the first sentence is already waiting for them.
    if (this.config.tts?.provider === 'embedded') this.deps.voices?.warm();
    return this.brain.open?.(info);
  }

  started(): void {
    this.brain.started?.();
  }

  turn(input: TurnInput): AsyncIterable<EngineEvent> {
    const events = this.brain.turn(input);
    return this.config.tts ? spokenTurn(events, this.config.tts, this.deps, input.signal, this.speakerKey) : events;
  }

  say(text: string, signal: AbortSignal): AsyncIterable<EngineEvent> {
    const said = (async function* (): AsyncIterable<EngineEvent> {
      yield { type: 'delta', text };
    })();
    return this.config.tts ? spokenTurn(said, this.config.tts, this.deps, signal, this.speakerKey) : said;
  }

  audio(pcm: Buffer, sampleRate: number): void {
    if (this.listener) this.listener.audio(pcm, sampleRate);
    else this.brain.audio?.(pcm, sampleRate);
  }

  speech(event: 'start' | 'end', atMs: number): void {
    if (this.listener) this.listener.speech(event, atMs);
    else this.brain.speech?.(event, atMs);
  }

  async close(reason: string): Promise<void> {
    this.listener?.close();
    await this.brain.close(reason);
  }
}
