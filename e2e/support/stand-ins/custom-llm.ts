// A self-hosted OpenAI-compatible model server for the custom base URL journey: its own loopback
// port (allow-listed, so plain http is accepted for it), no provider host redirected to it. Its
// answers name the model they were asked with, so the player shows which model spoke.
import { startOpenAiStandIn, STAND_IN_KEY } from '../../../apps/server/test/stand-ins/runtime/openai';
import { STAND_IN_BASE_PORT } from '../ports';
import type { StandIns } from '../stand-ins';

export const CUSTOM_LLM_PORT = STAND_IN_BASE_PORT + 4;
export const CUSTOM_LLM_BASE_URL = `http://127.0.0.1:${CUSTOM_LLM_PORT}/v1`;
export const CUSTOM_LLM_KEY = STAND_IN_KEY;

export async function startCustomLlm(): Promise<StandIns> {
  const s = await startOpenAiStandIn(CUSTOM_LLM_PORT);
  s.reply = (messages, req) => {
    const model = String((req.json() as { model?: string }).model);
    const last = [...messages].reverse().find((m) => m.role === 'user');
    return { content: [`[${model}] `, 'You said: ', String(last?.content ?? '')] };
  };
  return { allow: [s.allow], env: {}, close: () => s.close() };
}
