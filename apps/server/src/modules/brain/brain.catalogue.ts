// The provider table as this server reaches it: the shared table with the configured URL
// overrides applied (PROVIDER_URL_OVERRIDES). Built once per configuration.
import { buildBrainCatalogue, parseUrlOverrides, type BrainCatalogue } from '@parla/shared/provider-urls';
import type { Config } from '../../config';
import { embeddedVoiceEntries } from '../../runtime/engines/embedded/embedded-tts';

const cache = new WeakMap<Config, BrainCatalogue>();

export function brainCatalogue(config: Config): BrainCatalogue {
  let c = cache.get(config);
  if (!c) {
    const base = buildBrainCatalogue(parseUrlOverrides(config.PROVIDER_URL_OVERRIDES).overrides);
    c = {
      ...base,
      // The embedded voices can be picked under "Default" (decision 122): what is picked is heard.
      defaultVoices: config.EMBEDDED_VOICE ? [...embeddedVoiceEntries(), ...base.defaultVoices] : base.defaultVoices,
      serverLlm: Boolean(config.LLM_BASE_URL),
      serverSpeech: Boolean(config.SPEECH_BASE_URL),
      embeddedVoice: config.EMBEDDED_VOICE,
    };
    cache.set(config, c);
  }
  return c;
}
