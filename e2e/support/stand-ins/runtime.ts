// The conversation runtime's stand-ins for end-to-end runs: an OpenAI-compatible model (also
// the product's own model of Simple mode) on a fixed port, and the node secret remote pipeline
// nodes use. GET {OPENAI_STAND_IN}/_stand-in/chats returns the chat requests it received.
// ElevenLabs' host is an agent stand-in that speaks the Conversational AI protocol (its signed
// URLs point back at it); what it does not serve (voices, agent checks of the brain form) goes to
// the brain's provider stand-in. Its override comes first in PROVIDER_URL_OVERRIDES, so it wins.
import { elevenLabsHandler } from '../../../apps/server/test/stand-ins/elevenlabs';
import { STAND_IN_KEYS } from '../../../apps/server/test/stand-ins/keys';
import { startElevenLabsAgentStandIn } from '../../../apps/server/test/stand-ins/runtime/elevenlabs-agent';
import { startOpenAiStandIn, STAND_IN_KEY } from '../../../apps/server/test/stand-ins/runtime/openai';
import { STAND_IN_BASE_PORT } from '../ports';
import type { StandIns } from '../stand-ins';

export const OPENAI_STAND_IN_PORT = STAND_IN_BASE_PORT + 2;
export const OPENAI_STAND_IN = `http://127.0.0.1:${OPENAI_STAND_IN_PORT}`;
export const OPENAI_STAND_IN_KEY = STAND_IN_KEY;
export const ELEVENLABS_AGENT_PORT = STAND_IN_BASE_PORT + 3;
export const ELEVENLABS_AGENT_STAND_IN = `http://127.0.0.1:${ELEVENLABS_AGENT_PORT}`;
export const E2E_NODE_SECRET = 'e2e-node-secret-0123456789';

/** The model answers from the knowledge it was given (the first retrieved chunk and its source),
 *  so an answer found only in a collection proves retrieval reached the prompt. */
export function knowledgeReply(messages: { role: string; content: string | null }[]): { content: string[] } {
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const hit = /\[1\] \(source: ([^)]+)\)\n([^\n]+)/.exec(system);
  const answer = hit ? `According to ${hit[1]}: ${hit[2]}` : 'I do not know that.';
  return { content: answer.split(/(?<= )/) };
}

export async function startRuntimeStandIns(): Promise<StandIns> {
  const openai = await startOpenAiStandIn(OPENAI_STAND_IN_PORT);
  openai.reply = knowledgeReply;
  const providers = elevenLabsHandler();
  const agent = await startElevenLabsAgentStandIn({
    port: ELEVENLABS_AGENT_PORT,
    apiKey: STAND_IN_KEYS.elevenlabs,
    fallback: (req, res, path, query) =>
      providers({ req, res, path, query, header: (name) => String(req.headers[name.toLowerCase()] ?? '') }),
  });
  return {
    allow: [openai.allow, agent.allow],
    // xAI's host is the model for LLM avatars (the editor offers its redirected base URL).
    env: {
      NODE_SECRET: E2E_NODE_SECRET,
      LLM_BASE_URL: `${openai.url}/v1`,
      LLM_API_KEY: STAND_IN_KEY,
      PROVIDER_URL_OVERRIDES: `api.x.ai=${openai.url},api.elevenlabs.io=${agent.url}`,
    },
    close: async () => {
      await Promise.all([openai.close(), agent.close()]);
    },
  };
}
