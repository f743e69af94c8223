// Speech to Text (spec 3 §3, §4): Google (JSON key file, region, model, language), Azure (key,
// region, language), Deepgram (key checked through the proxy, models and their languages,
// endpointing), the product's default, or None; additional languages and context phrases.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { SttProvider } from '@parla/shared/enums';
import { SPOKEN_LANGUAGES, spokenLanguageName } from '@parla/shared/languages';
import type { BrainCatalogue } from '@parla/shared/provider-urls';
import {
  AZURE_SPEECH_REGIONS,
  DEEPGRAM_ENGLISH_ONLY_MODEL,
  DEEPGRAM_MULTILINGUAL,
  GOOGLE_STT_LOCATIONS,
  STT_PROVIDERS,
} from '@parla/shared/providers';
import { BRAIN_MESSAGES } from '@parla/shared/schemas/brain';
import type { BrainForm } from '@parla/shared/schemas/brain-forms';
import type { GoogleSttLanguage } from '@parla/shared/stt-languages';
import type { SelectOption } from '../../../components/form/form-select';
import { InvalidSttKey, useDeepgramModels } from '../api/get-deepgram-models';
import { useSttLanguages } from '../api/list-stt-languages';
import { changeSttProvider } from '../lib/transitions';
import { useDebounced } from '../lib/use-debounced';
import { BRAIN_INFO } from './brain-field-info';
import { BrainSelect, BrainText, JsonKeyField, SecretField } from './fields';
import { AdditionalLanguages } from './language-picker';

const label = (code: string) =>
  code === DEEPGRAM_MULTILINGUAL
    ? 'Multilingual (multi)'
    : `${spokenLanguageName(code)}${spokenLanguageName(code) === code ? '' : ` (${code})`}`;
const codes = (list: readonly string[]): SelectOption[] => list.map((c) => ({ value: c, label: label(c) }));
const isEnglish = (code: string) => /^en(-|$)/i.test(code);

export function SttForm({ catalogue, avatarId }: { catalogue: BrainCatalogue; avatarId?: string }) {
  const { control, getValues, setValue, clearErrors, setError } = useFormContext<BrainForm>();
  const mode = useWatch({ control, name: 'setupMode' });
  const d = useWatch({ control, name: 'sttDetails' });
  const provider = mode === 'Simple' ? SttProvider.Default : d.sttProvider;
  const lists = useSttLanguages(provider === SttProvider.Azure ? 'azure' : provider === SttProvider.Google ? 'google' : null);
  const key = useDebounced(d.sttAPIKey ?? '', 600);
  const deepgram = useDeepgramModels(provider === SttProvider.Deepgram ? catalogue.endpoints.deepgram : undefined, key.trim(), avatarId);
  const keyRefused = deepgram.error instanceof InvalidSttKey;

  // A refused Deepgram key: 'Invalid API Key' on the key, and no languages to offer.
  useEffect(() => {
    if (keyRefused) setError('sttDetails.sttAPIKey', { message: BRAIN_MESSAGES.sttKeyInvalid });
  }, [keyRefused, setError]);

  const providerOptions = (mode === 'Simple' ? STT_PROVIDERS.filter((p) => p.value === SttProvider.Default) : STT_PROVIDERS).map((p) => ({
    value: p.value,
    label: p.name,
  }));
  const onProvider = (v: string | number) => {
    setValue('sttDetails', changeSttProvider(getValues('sttDetails'), Number(v) as SttProvider), { shouldDirty: true });
    clearErrors('sttDetails');
  };

  let languages: SelectOption[] = [];
  let models: SelectOption[] = [];
  let regions: SelectOption[] = [];
  if (provider === SttProvider.Default) languages = SPOKEN_LANGUAGES.map((l) => ({ value: l.code, label: l.name }));
  if (provider === SttProvider.Azure) {
    languages = codes((lists.data?.languages as string[] | undefined) ?? []);
    regions = AZURE_SPEECH_REGIONS.map((r) => ({ value: r, label: r }));
  }
  if (provider === SttProvider.Google) {
    const entries = (lists.data?.languages as GoogleSttLanguage[] | undefined) ?? [];
    const preferred = catalogue.googlePreferredSttLanguages;
    const sorted = [...entries].sort((a, b) => (preferred.includes(b.code) ? 1 : 0) - (preferred.includes(a.code) ? 1 : 0));
    languages = sorted.map((l) => ({ value: l.code, label: `${l.name} (${l.code})` }));
    const entry = entries.find((l) => l.code === d.sttLanguage);
    models = (entry?.models ?? ['long']).map((m) => ({ value: m, label: m }));
    regions = (entry?.locations ?? GOOGLE_STT_LOCATIONS).map((r) => ({ value: r, label: r }));
  }
  if (provider === SttProvider.Deepgram && !keyRefused) {
    const all = deepgram.data ?? [];
    models = all
      .filter((m) => m.canonical_name !== DEEPGRAM_ENGLISH_ONLY_MODEL || isEnglish(d.sttLanguage))
      .map((m) => ({ value: m.canonical_name, label: m.canonical_name }));
    const model = all.find((m) => m.canonical_name === d.sttModel);
    languages = codes(model?.languages ?? []);
  }
  const loadingLanguages = lists.isFetching || deepgram.isFetching;

  return (
    <Box>
      <BrainSelect
        name="sttDetails.sttProvider"
        label="Speech to Text provider"
        info={BRAIN_INFO.sttProvider}
        options={providerOptions}
        disabled={mode === 'Simple'}
        onValueChange={onProvider}
      />
      {provider === SttProvider.None && (
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          The avatar does not listen; users type their messages.
        </Typography>
      )}
      {provider === SttProvider.Google && (
        <>
          <JsonKeyField
            name="sttDetails.sttAPIKey"
            fileName="sttDetails.sttAPIKeyFileName"
            label="Google JSON key file"
            info={BRAIN_INFO.sttKeyFile}
          />
          <BrainSelect name="sttDetails.sttRegion" label="Region" info={BRAIN_INFO.sttRegion} options={regions} />
        </>
      )}
      {(provider === SttProvider.Azure || provider === SttProvider.Deepgram) && (
        <SecretField name="sttDetails.sttAPIKey" label="API Key" info={BRAIN_INFO.sttKey} required />
      )}
      {provider === SttProvider.Azure && (
        <BrainSelect name="sttDetails.sttRegion" label="Region" info={BRAIN_INFO.sttRegion} options={regions} />
      )}
      {(provider === SttProvider.Google || provider === SttProvider.Deepgram) && (
        <BrainSelect
          name="sttDetails.sttModel"
          label="Model"
          info={BRAIN_INFO.sttModel}
          options={models}
          loading={deepgram.isFetching}
          helperText={provider === SttProvider.Deepgram && !key.trim() ? 'Enter the API key to list the models.' : undefined}
        />
      )}
      {provider !== SttProvider.None && (
        <>
          <BrainSelect
            name="sttDetails.sttLanguage"
            label="Language"
            info={BRAIN_INFO.sttLanguage}
            options={languages}
            loading={loadingLanguages}
          />
          <AdditionalLanguages options={languages} primary={d.sttLanguage} loading={loadingLanguages} />
        </>
      )}
      {provider !== SttProvider.None && provider !== SttProvider.Default && mode !== 'Simple' && (
        <BrainText
          name="sttDetails.sttContextPhrases"
          label="Context phrases"
          info={BRAIN_INFO.sttPhrases}
          multiline
          minRows={2}
          maxRows={6}
          placeholder="One phrase per line"
        />
      )}
      {provider === SttProvider.Deepgram && (
        <BrainText name="sttDetails.deepgramEndpoint" label="Endpointing (ms)" info={BRAIN_INFO.deepgramEndpoint} inputMode="numeric" />
      )}
    </Box>
  );
}
