// Summaries (issue 13, decision 622): with Summary Enabled, at the end of a conversation the
// avatar's own language model — or the product's (LLM_BASE_URL) when its engine has none —
// writes a short summary, stored with the conversation. When the same verified end user talks
// to the avatar again, the last summary is given to the brain as memory: language models in
// their system context, REST endpoints as a `summary` field, realtime in its instructions.
import { languageModel } from '../engines';
import type { EngineConfig, EngineDeps, LlmConfig } from '../types';

export const SUMMARY_INSTRUCTIONS =
  'Summarise the following conversation between a user and an avatar in at most three sentences: who the user is, what they wanted and what was agreed or left open. Write only the summary.';
/** Characters of conversation given to the model (its latest part when longer). */
const MAX_INPUT_CHARS = 24_000;
const MAX_SUMMARY_CHARS = 2_000;

/** The model that writes the summary: the avatar's own, else the product's, else none. */
export function summaryModel(engine: EngineConfig, product: LlmConfig | null): LlmConfig | null {
  if (engine.kind === 'llm') return engine;
  if (engine.kind === 'pipeline') return engine.llm;
  return product;
}

export async function summarise(model: LlmConfig, conversation: string, deps: EngineDeps): Promise<string> {
  const engine = languageModel({ ...model, tools: [], maxTokens: 200 }, deps);
  const signal = AbortSignal.timeout(60_000);
  let text = '';
  const messages = [
    { role: 'system' as const, content: SUMMARY_INSTRUCTIONS },
    { role: 'user' as const, content: conversation.slice(-MAX_INPUT_CHARS) },
  ];
  for await (const ev of engine.complete(messages, signal)) if (ev.type === 'delta') text += ev.text;
  return text.trim().slice(0, MAX_SUMMARY_CHARS);
}

const memoryLine = (summary: string) => `What you remember of this user's previous conversation: ${summary}`;

/** The engine configuration with the remembered summary given to its brain. */
export function withMemory(engine: EngineConfig, summary: string | null): EngineConfig {
  if (!summary) return engine;
  const join = (a: string | undefined, b: string) => [a?.trim(), b].filter(Boolean).join('\n\n');
  switch (engine.kind) {
    case 'llm':
      return { ...engine, memory: join(engine.memory, memoryLine(summary)) };
    case 'pipeline':
      return { ...engine, llm: { ...engine.llm, memory: join(engine.llm.memory, memoryLine(summary)) } };
    case 'rest':
      return { ...engine, summary };
    case 'realtime':
      return { ...engine, instructions: join(engine.instructions, memoryLine(summary)) };
    case 'assistant':
      return { ...engine, instructions: join(engine.instructions, memoryLine(summary)) };
    default:
      return engine;
  }
}
