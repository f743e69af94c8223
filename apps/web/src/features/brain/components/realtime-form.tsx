// {product}-realtime, speech to speech (spec 3 §3): OpenAI or Gemini, their models and voices
// (eight and five), the key, instructions and greeting.
import Box from '@mui/material/Box';
import { useFormContext, useWatch } from 'react-hook-form';
import { realtimeProviderForUrl, type BrainCatalogue } from '@parla/shared/provider-urls';
import type { BrainForm } from '@parla/shared/schemas/brain-forms';
import { BRAIN_INFO } from './brain-field-info';
import { BrainSelect, BrainText, SecretField } from './fields';

export function RealtimeForm({ catalogue }: { catalogue: BrainCatalogue }) {
  const { control, getValues, setValue } = useFormContext<BrainForm>();
  const url = useWatch({ control, name: 'realtimeDetails.url' });
  const provider = realtimeProviderForUrl(catalogue, url);
  return (
    <Box>
      <BrainSelect
        name="realtimeDetails.url"
        label="Base URL"
        info={BRAIN_INFO.realtimeUrl}
        options={catalogue.realtimeProviders.map((p) => ({ value: p.url, label: `${p.name} — ${p.url}` }))}
        onValueChange={(v) => {
          // Another service: its own models and voices, and its own key.
          const next = realtimeProviderForUrl(catalogue, String(v));
          setValue(
            'realtimeDetails',
            { ...getValues('realtimeDetails'), url: String(v), api_key: '', model: next?.models[0] ?? '', voice_id: next?.voices[0] ?? '' },
            { shouldDirty: true },
          );
        }}
      />
      <SecretField name="realtimeDetails.api_key" label="API Key" info={BRAIN_INFO.llmKey} />
      <Box sx={{ display: 'grid', gridTemplateColumns: { sm: '1fr', md: '1fr 1fr' }, columnGap: 2 }}>
        <BrainSelect
          name="realtimeDetails.model"
          label="Model"
          info={BRAIN_INFO.realtimeModel}
          options={(provider?.models ?? []).map((m) => ({ value: m, label: m }))}
        />
        <BrainSelect
          name="realtimeDetails.voice_id"
          label="Voice"
          info={BRAIN_INFO.realtimeVoice}
          options={(provider?.voices ?? []).map((v) => ({ value: v, label: v }))}
        />
      </Box>
      <BrainText name="realtimeDetails.instructions" label="Instructions" info={BRAIN_INFO.prompt} multiline minRows={3} maxRows={10} />
      <BrainText name="realtimeDetails.greeting" label="Greeting" info={BRAIN_INFO.greeting} />
    </Box>
  );
}
