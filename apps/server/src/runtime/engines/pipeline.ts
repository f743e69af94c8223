// Custom STT/LLM/TTS pipeline: the LLM brain with server speech around it (voice.ts), the same
// speech path every Composite avatar uses.
import type { EngineDeps, EngineHost, PipelineConfig } from '../types';
import { LlmEngine } from './llm';
import { VoiceEngine } from './voice';

export function pipelineEngine(config: PipelineConfig, deps: EngineDeps, host: EngineHost): VoiceEngine {
  return new VoiceEngine(new LlmEngine(config.llm, deps), { stt: config.stt, tts: config.tts, turn: config.turn }, deps, host, 'pipeline');
}

export { lastSentenceEnd } from './speaker';
