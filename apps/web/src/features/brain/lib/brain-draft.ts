// What the Brain tab exchanges with the avatar editor: the mode, engine and realtime flag, and
// the pipeline blocks it owns. Interruption and voice-activity settings belong to ADVANCED and
// are kept as they are when the brain part changes.
import type { SetupMode } from '@parla/shared/enums';
import type { AgentPipelineConfig } from '@parla/shared/schemas/brain';
import type { AvatarEngineFields } from '@parla/shared/schemas/brain-pipeline';

export interface BrainDraft extends AvatarEngineFields {
  setupMode: SetupMode;
  nlpEngine: number;
  realtime: boolean;
  pipeline: unknown;
}

export interface BrainChange {
  setupMode: SetupMode;
  nlpEngine: number;
  /** stt, tts, llm, the speech-to-speech fields and third_party. */
  pipeline: AgentPipelineConfig;
  /** The REST or Dialogflow fields of the avatar (empty for the other engines). */
  avatarFields: AvatarEngineFields;
}

type Loose = Record<string, unknown>;

/** The editor's pipeline with the brain's blocks replaced and ADVANCED's kept. */
export function mergeBrainPipeline(current: unknown, brain: AgentPipelineConfig): AgentPipelineConfig {
  const c = (typeof current === 'object' && current !== null ? current : {}) as Loose;
  const { interrupt_handling: _i, vad_options: _v, ...blocks } = brain;
  return {
    ...blocks,
    ...(c.interrupt_handling ? { interrupt_handling: c.interrupt_handling as AgentPipelineConfig['interrupt_handling'] } : {}),
    ...(c.vad_options ? { vad_options: c.vad_options as AgentPipelineConfig['vad_options'] } : {}),
  };
}
