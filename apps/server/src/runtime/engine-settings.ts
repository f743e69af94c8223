// The avatar settings its engine configuration carries (issue 13): Send Chat History (bit 1)
// for the engines that are given the conversation so far (REST, Dialogflow; language models
// keep their own multi-turn context whatever the bit says: decision 620), and the Agent
// Language for every engine that takes instructions (language models, the pipeline's model,
// realtime); REST and Dialogflow already receive it as `language` / `languageCode`.
import { AvatarPermission, hasPermission } from '@parla/shared/schemas/avatar';
import { isSpokenLanguage, MULTILINGUAL_CODE, SPOKEN_LANGUAGES, spokenLanguageName } from '@parla/shared/languages';
import type { EngineConfig } from './types';

export interface EngineSettingsSource {
  permissions: number;
  agent_language: string;
}

/** The instruction that makes a model answer in the agent language ('' for multilingual). */
export function languageInstruction(code: string): string {
  const c = code.trim();
  if (!c || c === MULTILINGUAL_CODE) return '';
  // 'fr-FR' is listed; the agent language's short form 'fr' is named after its first region.
  const name = isSpokenLanguage(c)
    ? spokenLanguageName(c)
    : (SPOKEN_LANGUAGES.find((l) => l.code.startsWith(`${c}-`))?.name.replace(/ \(.*\)$/, '') ?? c);
  return `Always answer in ${name} (${c}), whatever language the user writes in.`;
}

const withLanguage = (instructions: string, code: string) => [instructions, languageInstruction(code)].filter(Boolean).join('\n\n');

export function withSettings(config: EngineConfig, row: EngineSettingsSource): EngineConfig {
  const sendHistory = hasPermission(row.permissions, AvatarPermission.canSendChatHistory);
  const language = row.agent_language ?? '';
  switch (config.kind) {
    case 'rest':
    case 'dialogflow_es':
    case 'dialogflow_cx':
      return { ...config, sendHistory };
    case 'llm':
      return { ...config, instructions: withLanguage(config.instructions, language) };
    case 'pipeline':
      return { ...config, llm: { ...config.llm, instructions: withLanguage(config.llm.instructions, language) } };
    case 'realtime':
      return { ...config, instructions: withLanguage(config.instructions, language) };
    case 'assistant':
      return { ...config, instructions: withLanguage(config.instructions ?? '', language) };

    default:
      return config;
  }
}
