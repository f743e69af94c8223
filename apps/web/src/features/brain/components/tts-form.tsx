// Text to Speech (spec 3 §3, §4): Azure, Polly (Standard and Neural voices), ElevenLabs,
// Cartesia and Neuphonic (its own key and language) with voices read with the keys a moment
// after they change, regions, models and speech speed; the product's voices in Simple mode.
import { useEffect } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useFormContext, useWatch } from 'react-hook-form';
import { NEUPHONIC_KEY_MIN_LENGTH, VOICES_RELOAD_DELAY_MS } from '@parla/shared/brain-limits';
import { isEmbeddedVoiceId } from '@parla/shared/embedded-voices';
import { SpeechVoiceProvider } from '@parla/shared/enums';
import type { BrainCatalogue } from '@parla/shared/provider-urls';
import { NEUPHONIC_LANGUAGES, TTS_PROVIDERS, ttsProviderInfo, type VoiceEntry } from '@parla/shared/providers';
import { BRAIN_MESSAGES, type TtsListVoicesRequest } from '@parla/shared/schemas/brain';
import type { BrainForm, TtsDetails } from '@parla/shared/schemas/brain-forms';
import { useTtsVoices } from '../api/list-tts-voices';
import { changeTtsProvider } from '../lib/transitions';
import { defaultVoiceChoice } from '../lib/default-voices';
import { useDebounced } from '../lib/use-debounced';
import { BRAIN_INFO } from './brain-field-info';
import { BrainSelect, BrainText, SecretField } from './fields';
import { VoiceSampleButton } from './voice-sample-button';

/** What to ask the server for, once the keys (and region) are there. */
function voiceRequest(d: TtsDetails): TtsListVoicesRequest | null {
  const p = d.ttsProvider;
  const has = (v: string) => Boolean(v && v.trim());
  if (p === SpeechVoiceProvider.Azure)
    return has(d.azureSubscriptionKey) && has(d.ttsRegion)
      ? { ttsProvider: p, azureSubscriptionKey: d.azureSubscriptionKey, ttsRegion: d.ttsRegion }
      : null;
  if (p === SpeechVoiceProvider.Polly)
    return has(d.pollyAccessKey) && has(d.pollySecretKey) && has(d.ttsRegion)
      ? { ttsProvider: p, pollyAccessKey: d.pollyAccessKey, pollySecretKey: d.pollySecretKey, ttsRegion: d.ttsRegion }
      : null;
  if (p === SpeechVoiceProvider.ElevenLabs)
    return has(d.elevenLabsAPIKey) ? { ttsProvider: p, elevenLabsAPIKey: d.elevenLabsAPIKey } : null;
  if (p === SpeechVoiceProvider.Cartesia) return has(d.cartesiaAPIKey) ? { ttsProvider: p, cartesiaAPIKey: d.cartesiaAPIKey } : null;
  return null;
}

const voiceLabel = (v: VoiceEntry) =>
  [v.name, v.languageCode && `(${v.languageCode})`, v.gender, v.custom ? '· custom' : ''].filter(Boolean).join(' ');

export function TtsForm({ catalogue, avatarId, voiceGender }: { catalogue: BrainCatalogue; avatarId?: string; voiceGender?: string }) {
  const { control, getValues, setValue, clearErrors } = useFormContext<BrainForm>();
  const mode = useWatch({ control, name: 'setupMode' });
  const d = useWatch({ control, name: 'ttsDetails' });
  const language = useWatch({ control, name: 'sttDetails.sttLanguage' });
  // No provider saved yet (an avatar made without a pipeline) is "Default", as the server reads it.
  const provider = mode === 'Simple' ? SpeechVoiceProvider.Default : (d.ttsProvider ?? SpeechVoiceProvider.Default);
  const info = ttsProviderInfo(provider);
  const request = useDebounced(JSON.stringify(voiceRequest(d)), VOICES_RELOAD_DELAY_MS);
  const npKey = useDebounced(provider === SpeechVoiceProvider.Neuphonic ? (d.neuphonic?.api_key ?? '') : '', VOICES_RELOAD_DELAY_MS);
  const neuphonic = npKey.trim().length > NEUPHONIC_KEY_MIN_LENGTH ? { base: catalogue.endpoints.neuphonic, key: npKey.trim() } : null;
  const voices = useTtsVoices(JSON.parse(request) as TtsListVoicesRequest | null, neuphonic, avatarId);

  const own = defaultVoiceChoice(catalogue, language, voiceGender);
  let list: VoiceEntry[] = provider === SpeechVoiceProvider.Default ? own.list : (voices.data ?? []);
  if (provider === SpeechVoiceProvider.Neuphonic && d.neuphonic?.lang_code)
    list = list.filter((v) => !v.languageCode || v.languageCode === d.neuphonic.lang_code);
  const failed = provider !== SpeechVoiceProvider.Default && voices.isError;

  // The first voice is chosen when none is set; a failed list clears the choice (spec 3 §4, §8).
  // "Default": a voice the list does not offer (a browser voice of an English avatar, a built-in
  // voice of a German one) becomes the one that fits the avatar, which is what the server speaks.
  const first = provider === SpeechVoiceProvider.Default ? own.fitting : list[0]?.id;
  const offered = provider === SpeechVoiceProvider.Default ? list.map((v) => v.id).join(',') : null;
  // Watched too: a mode switch that empties the voice (issue 39 item 6: Composite's "Default"
  // voice showed blank) chooses again.
  const current = d.ttsVoice;
  useEffect(() => {
    const unlisted = offered !== null && current && !offered.split(',').includes(current);
    if (failed && current) setValue('ttsDetails.ttsVoice', '', { shouldDirty: true });
    else if (!failed && first && (!current || unlisted)) setValue('ttsDetails.ttsVoice', first, { shouldDirty: true });
  }, [failed, first, offered, current, setValue]);
  const picked = list.find((v) => v.id === d.ttsVoice);

  const providerOptions = (mode === 'Simple' ? TTS_PROVIDERS.filter((p) => p.value === SpeechVoiceProvider.Default) : TTS_PROVIDERS).map(
    (p) => ({ value: p.value, label: p.name }),
  );
  const onProvider = (v: string | number) => {
    setValue('ttsDetails', changeTtsProvider(getValues('ttsDetails'), Number(v) as SpeechVoiceProvider), { shouldDirty: true });
    clearErrors('ttsDetails');
  };
  const regions = (info?.regions ?? []).map((r) => ({ value: r, label: r }));

  return (
    <Box>
      <BrainSelect
        name="ttsDetails.ttsProvider"
        label="Text to Speech provider"
        info={BRAIN_INFO.ttsProvider}
        options={providerOptions}
        disabled={mode === 'Simple'}
        onValueChange={onProvider}
      />
      {provider === SpeechVoiceProvider.None && (
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          The avatar does not speak; replies are shown as text.
        </Typography>
      )}
      {provider === SpeechVoiceProvider.Azure && (
        <SecretField name="ttsDetails.azureSubscriptionKey" label="Subscription Key" info={BRAIN_INFO.ttsKey} required />
      )}
      {provider === SpeechVoiceProvider.Polly && (
        <Box sx={{ display: 'grid', gridTemplateColumns: { sm: '1fr', md: '1fr 1fr' }, columnGap: 2 }}>
          <BrainText name="ttsDetails.pollyAccessKey" label="Access Key" info={BRAIN_INFO.pollyAccess} required autoComplete="off" />
          <SecretField name="ttsDetails.pollySecretKey" label="Secret Key" info={BRAIN_INFO.pollySecret} required />
        </Box>
      )}
      {provider === SpeechVoiceProvider.ElevenLabs && (
        <SecretField name="ttsDetails.elevenLabsAPIKey" label="API Key" info={BRAIN_INFO.ttsKey} required />
      )}
      {provider === SpeechVoiceProvider.Cartesia && (
        <SecretField name="ttsDetails.cartesiaAPIKey" label="API Key" info={BRAIN_INFO.ttsKey} required />
      )}
      {provider === SpeechVoiceProvider.Neuphonic && (
        <Box sx={{ display: 'grid', gridTemplateColumns: { sm: '1fr', md: '1fr 1fr' }, columnGap: 2 }}>
          <SecretField name="ttsDetails.neuphonic.api_key" label="API Key" info={BRAIN_INFO.ttsKey} required />
          <BrainSelect
            name="ttsDetails.neuphonic.lang_code"
            label="Language"
            info={BRAIN_INFO.neuphonicLang}
            options={NEUPHONIC_LANGUAGES.map((l) => ({ value: l, label: l }))}
          />
        </Box>
      )}
      {regions.length > 0 && <BrainSelect name="ttsDetails.ttsRegion" label="Region" info={BRAIN_INFO.ttsRegion} options={regions} />}
      {info?.models && info.key !== 'polly' && (
        <BrainSelect
          name="ttsDetails.ttsModel"
          label="Model"
          info={BRAIN_INFO.ttsModel}
          options={info.models.map((m) => ({ value: m, label: m }))}
        />
      )}
      {provider !== SpeechVoiceProvider.None && (
        <BrainSelect
          name="ttsDetails.ttsVoice"
          label="Voice"
          info={BRAIN_INFO.ttsVoice}
          options={list.map((v) => ({ value: v.id, label: voiceLabel(v) }))}
          loading={voices.isFetching}
        />
      )}
      {provider === SpeechVoiceProvider.Default && picked && isEmbeddedVoiceId(picked.id) && (
        <VoiceSampleButton voice={picked.id} voiceName={picked.name.replace(/, built in$/, '')} />
      )}
      {provider === SpeechVoiceProvider.Default && own.note && (
        <Alert severity="info" sx={{ mt: 1 }} data-testid="no-embedded-voice">
          {own.note}
        </Alert>
      )}
      {failed && (
        <Alert
          severity="error"
          sx={{ mt: 1 }}
          action={
            <Link component="button" type="button" onClick={() => void voices.refetch()}>
              Retry
            </Link>
          }
        >
          {BRAIN_MESSAGES.voicesFailed}
        </Alert>
      )}
      {info?.speed && mode !== 'Simple' && (
        <BrainText
          name="ttsDetails.ttsSpeechSpeed"
          label="Speech speed"
          info={BRAIN_INFO.ttsSpeed}
          inputMode="decimal"
          helperText={`From ${info.speed.min} (slowest) to ${info.speed.max} (fastest).`}
          required={info.speed.required}
        />
      )}
    </Box>
  );
}
