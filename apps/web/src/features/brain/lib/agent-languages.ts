// The languages an engine can answer in: the base codes of the product's spoken languages.
import { SPOKEN_LANGUAGES, MULTILINGUAL_CODE } from '@parla/shared/languages';
import type { SelectOption } from '../../../components/form/form-select';

export const AGENT_LANGUAGE_OPTIONS: SelectOption[] = (() => {
  const seen = new Map<string, string>();
  for (const l of SPOKEN_LANGUAGES) {
    if (l.code === MULTILINGUAL_CODE) continue;
    const base = l.code.split('-')[0]!;
    if (!seen.has(base)) seen.set(base, l.name.replace(/\s*\(.*\)$/, ''));
  }
  return [...seen.entries()].sort((a, b) => a[1].localeCompare(b[1])).map(([value, label]) => ({ value, label: `${label} (${value})` }));
})();
