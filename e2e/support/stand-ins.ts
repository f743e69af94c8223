// Local stand-ins for third-party providers, speaking their real wire protocols on loopback.
// Each feature adds its own module under support/stand-ins/ and lists it here.
import { STAND_IN_BASE_PORT } from './ports';
import { startBrainProviders } from './stand-ins/brain-providers';
import { startCustomLlm } from './stand-ins/custom-llm';
import { startKnowledgeSite } from './stand-ins/knowledge-site';
import { startRuntimeStandIns } from './stand-ins/runtime';
import { startSpeechStandIn } from './stand-ins/speech';

/** The small website the knowledge tests crawl (its port is allow-listed for the server). */
export const KNOWLEDGE_SITE_PORT = STAND_IN_BASE_PORT;
export const KNOWLEDGE_SITE_URL = `http://127.0.0.1:${KNOWLEDGE_SITE_PORT}`;

export interface StandIns {
  /** host:port pairs for OUTBOUND_ALLOW. */
  allow: string[];
  /** Extra server environment (e.g. LLM_BASE_URL pointing at a stand-in). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Later values win, except PROVIDER_URL_OVERRIDES lists, which are joined. */
function mergeEnv(envs: Record<string, string>[]): Record<string, string> {
  const out: Record<string, string> = Object.assign({}, ...envs);
  const overrides = envs.map((e) => e.PROVIDER_URL_OVERRIDES).filter(Boolean);
  if (overrides.length) out.PROVIDER_URL_OVERRIDES = overrides.join(',');
  return out;
}

export async function startStandIns(): Promise<StandIns> {
  const started: StandIns[] = [await startRuntimeStandIns()];
  const site = await startKnowledgeSite(KNOWLEDGE_SITE_PORT);
  started.push({ allow: [`127.0.0.1:${site.port}`], env: {}, close: site.close });
  started.push(await startBrainProviders());
  started.push(await startCustomLlm());
  // Server speech only for the voice specs (playwright.voice.config.ts).
  if (process.env.E2E_SERVER_SPEECH === '1') started.push(await startSpeechStandIn());
  return {
    allow: started.flatMap((s) => s.allow),
    env: mergeEnv(started.map((s) => s.env)),
    close: async () => {
      await Promise.all(started.map((s) => s.close()));
    },
  };
}
