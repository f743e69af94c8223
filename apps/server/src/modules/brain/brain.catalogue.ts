// The provider table as this server reaches it: the shared table with the configured URL
// overrides applied (PROVIDER_URL_OVERRIDES). Built once per configuration.
import { buildBrainCatalogue, parseUrlOverrides, type BrainCatalogue } from '@parla/shared/provider-urls';
import type { Config } from '../../config';

const cache = new WeakMap<Config, BrainCatalogue>();

export function brainCatalogue(config: Config): BrainCatalogue {
  let c = cache.get(config);
  if (!c) {
    c = {
      ...buildBrainCatalogue(parseUrlOverrides(config.PROVIDER_URL_OVERRIDES).overrides),
      serverLlm: Boolean(config.LLM_BASE_URL),
      serverSpeech: Boolean(config.SPEECH_BASE_URL),
      embeddedVoice: config.EMBEDDED_VOICE,
    };
    cache.set(config, c);
  }
  return c;
}
