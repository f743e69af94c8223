// One factory from a typed configuration to its engine; a configuration with `speech` gets
// server speech around its brain (voice.ts).
import type { BrainConfig, Engine, EngineConfig, EngineDeps, EngineHost, LlmConfig } from '../types';
import { AssistantEngine } from './assistant';
import { DialogflowEngine } from './dialogflow';
import { EchoEngine, MessageEngine } from './echo';
import { LlmEngine } from './llm';
import { pipelineEngine } from './pipeline';
import { RealtimeEngine } from './realtime';
import { RestEngine } from './rest';
import { AgoraTenEngine, ElevenLabsAgentEngine } from './third-party';
import { SpeechFailed } from './provider-error';
import { speechOf } from './speech-of';
import { VoiceEngine } from './voice';

/** SpeechFailed: what the turn loop tells apart (the voice failed, not the answer; decision 614). */
export { speechOf, SpeechFailed };

/** The echo brain (echo mode; a daily allowance run out mid-conversation). With an avatar's
 *  engine configuration and the engines' services, it speaks with that avatar's server speech. */
export function echoEngine(speaking?: { config: EngineConfig; deps: EngineDeps | undefined; host: EngineHost }): Engine {
  const speech = speaking && speechOf(speaking.config);
  return speech && speaking.deps ? new VoiceEngine(new EchoEngine(), speech, speaking.deps, speaking.host, 'echo') : new EchoEngine();
}

/** A language model for one-off completions outside a turn (summaries). */
export const languageModel = (config: LlmConfig, deps: EngineDeps): LlmEngine => new LlmEngine(config, deps);

export function createEngine(config: EngineConfig, deps: EngineDeps, host: EngineHost): Engine {
  const brain = createBrain(config, deps, host);
  return config.speech && config.kind !== 'pipeline' && config.kind !== 'realtime'
    ? new VoiceEngine(brain, config.speech, deps, host)
    : brain;
}

function createBrain(config: BrainConfig, deps: EngineDeps, host: EngineHost): Engine {
  switch (config.kind) {
    case 'echo':
      return new EchoEngine();
    case 'unavailable':
      return new MessageEngine(config.message);
    case 'llm':
      return new LlmEngine(config, deps);
    case 'assistant':
      return new AssistantEngine(config, deps);
    case 'rest':
      return new RestEngine(config, deps);
    case 'dialogflow_es':
    case 'dialogflow_cx':
      return new DialogflowEngine(config, deps);
    case 'realtime':
      return new RealtimeEngine(config, deps, host);
    case 'elevenlabs':
      return new ElevenLabsAgentEngine(config, deps);
    case 'agora_ten':
      return new AgoraTenEngine(config, deps);
    case 'pipeline':
      return pipelineEngine(config, deps, host);
  }
}
