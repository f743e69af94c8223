// The LLM form (spec 3 §3, §4): base URL of the ten providers, key, model list read with the key,
// prompt or assistant (Composite, no realtime flag, OpenAI only), assistants fetched a second
// after the key is there, instructions, memory, max tokens. Simple mode: Groq and its models.
// Composite mode also offers "Custom (OpenAI-compatible)": a base URL of the customer's own, its
// models read from {base}/models through the server, or typed when they cannot be read
// (docs/decisions/302-custom-llm-base-url.md).
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { useFormContext, useWatch } from 'react-hook-form';
import { ASSISTANT_FETCH_DELAY_MS } from '@parla/shared/brain-limits';
import { AvatarEngine } from '@parla/shared/enums';
import type { BrainCatalogue } from '@parla/shared/provider-urls';
import { BRAIN_MESSAGES } from '@parla/shared/schemas/brain';
import { isCustomLlm, isMaskedSecret, type BrainForm, type InteractionType } from '@parla/shared/schemas/brain-forms';
import { CUSTOM_LLM_LABEL, CUSTOM_LLM_MESSAGES, customBaseUrlIssue } from '@parla/shared/schemas/custom-llm';
import { FormSwitch } from '../../../components/form/form-switch';
import { useFieldInfo } from '../../../components/info-panel';
import { errorLines } from '../../../lib/api-client';
import { useAssistants } from '../api/get-assistants';
import { useLlmModels } from '../api/get-llm-models';
import { AGENT_LANGUAGE_OPTIONS } from '../lib/agent-languages';
import { changeBaseUrl, changeCustomBaseUrl, chooseCustomBaseUrl, interactionTypeSelectable } from '../lib/transitions';
import { useDebounced } from '../lib/use-debounced';
import { BRAIN_INFO } from './brain-field-info';
import { BaseUrlChoice, BrainSelect, BrainText, CustomUrlField, SecretField } from './fields';

const KEY_SETTLE_MS = 500;
/** The Base URL select's value while the custom choice is on (the URL itself is typed below). */
const CUSTOM_CHOICE = 'custom';

export function LlmForm({ catalogue, avatarId }: { catalogue: BrainCatalogue; avatarId?: string }) {
  const { control, getValues, setValue } = useFormContext<BrainForm>();
  const mode = useWatch({ control, name: 'setupMode' });
  const realtime = useWatch({ control, name: 'realtime' });
  const engine = useWatch({ control, name: 'nlpEngine' });
  const llm = useWatch({ control, name: 'llmDetails' });
  const simple = mode === 'Simple';
  const custom = !simple && isCustomLlm(llm);
  const key = useDebounced(llm.llmAPIKey ?? '', KEY_SETTLE_MS);
  const customUrl = useDebounced(custom ? llm.url : '', KEY_SETTLE_MS);
  const urlReady = custom ? Boolean(customUrl) && !customBaseUrlIssue(customUrl) && customUrl === llm.url : Boolean(llm.url);
  const ready = !simple && urlReady && key.trim().length > 0;
  const models = useLlmModels(
    ready ? { baseUrl: llm.url, apiKey: key, ...(custom ? { custom: true } : {}), ...(isMaskedSecret(key) ? { avatarId } : {}) } : null,
  );
  const selectable = interactionTypeSelectable({ setupMode: mode, realtime, llmDetails: llm }, catalogue);
  const assistantKey = useDebounced(llm.llmAPIKey ?? '', ASSISTANT_FETCH_DELAY_MS);
  const wantAssistants = selectable && llm.interactionType === 'assistant' && assistantKey.trim().length > 0;
  const assistants = useAssistants(
    wantAssistants ? { baseUrl: llm.url, apiKey: assistantKey, ...(isMaskedSecret(assistantKey) ? { avatarId } : {}) } : null,
  );
  const typeInfo = useFieldInfo(BRAIN_INFO.interactionType);
  const chooseBaseUrl = (v: string) => {
    const current = getValues('llmDetails');
    if (v === CUSTOM_CHOICE) {
      if (!isCustomLlm(current)) setValue('llmDetails', chooseCustomBaseUrl(current), { shouldDirty: true });
    } else setValue('llmDetails', changeBaseUrl(current, v, catalogue), { shouldDirty: true });
  };
  const summaryInfo = useFieldInfo(BRAIN_INFO.summary);

  const modelOptions = simple
    ? catalogue.singleModeModelsList.map((m) => ({ value: m, label: m }))
    : (models.data?.models ?? []).map((m) => ({ value: m, label: m }));
  const modelsError = !simple && models.isError ? errorLines(models.error).join(' ') : undefined;
  // Any provider whose model list cannot be read (or is empty): the model is typed.
  const typedModel = !simple && ready && !models.isFetching && (models.isError || (models.isSuccess && models.data.models.length === 0));
  const urlOptions = [
    ...catalogue.llmProviders.map((p) => ({ value: p.baseUrl, label: `${p.name} — ${p.baseUrl}` })),
    ...(mode === 'Composite' && engine === AvatarEngine.LargeLanguageModel ? [{ value: CUSTOM_CHOICE, label: CUSTOM_LLM_LABEL }] : []),
  ];
  const assistantsError = assistants.isError
    ? (assistants.error as { failReason?: string }).failReason === 'INVALID_KEY'
      ? BRAIN_MESSAGES.invalidKey
      : BRAIN_MESSAGES.assistantsFailed
    : undefined;

  return (
    <Box>
      {custom ? (
        <BaseUrlChoice value={CUSTOM_CHOICE} options={urlOptions} info={BRAIN_INFO.llmUrl} onChange={(v) => chooseBaseUrl(v)} />
      ) : (
        <BrainSelect
          name="llmDetails.url"
          label="Base URL"
          info={BRAIN_INFO.llmUrl}
          disabled={simple}
          options={urlOptions}
          onValueChange={(v) => chooseBaseUrl(String(v))}
        />
      )}
      {custom && (
        <CustomUrlField
          info={BRAIN_INFO.customUrl}
          helperText="The models are read from {base URL}/models."
          onValueChange={(v) => setValue('llmDetails', changeCustomBaseUrl(getValues('llmDetails'), v), { shouldDirty: true })}
        />
      )}
      {!simple && <SecretField name="llmDetails.llmAPIKey" label="API Key" info={BRAIN_INFO.llmKey} />}
      {typedModel ? (
        <BrainText
          name="llmDetails.llmModel"
          label="Model"
          info={BRAIN_INFO.customModel}
          required
          helperText={[modelsError, CUSTOM_LLM_MESSAGES.modelsUnavailable].filter(Boolean).join(' ')}
        />
      ) : (
        <BrainSelect
          name="llmDetails.llmModel"
          label="Model"
          info={BRAIN_INFO.llmModel}
          options={modelOptions}
          loading={!simple && ready && models.isFetching}
          helperText={
            modelsError ??
            (!simple && !ready
              ? custom
                ? 'Enter the base URL and the API key to list the models.'
                : 'Enter the API key to list the models.'
              : undefined)
          }
          slotProps={{ formHelperText: { error: Boolean(modelsError) } }}
        />
      )}
      {selectable && (
        <FormControl sx={{ mt: 1 }} {...typeInfo}>
          <FormLabel id="llm-interaction-type">Interaction type</FormLabel>
          <RadioGroup
            row
            aria-labelledby="llm-interaction-type"
            value={llm.interactionType}
            onChange={(_e, v) => setValue('llmDetails.interactionType', v as InteractionType, { shouldDirty: true })}
          >
            <FormControlLabel value="prompt" control={<Radio />} label="Prompt" />
            <FormControlLabel value="assistant" control={<Radio />} label="Assistant" />
          </RadioGroup>
        </FormControl>
      )}
      {selectable && llm.interactionType === 'assistant' && (
        <BrainSelect
          name="llmDetails.llmAssistantId"
          label="Assistant"
          info={BRAIN_INFO.assistant}
          options={(assistants.data?.assistants ?? []).map((a) => ({ value: a.id, label: a.name ? `${a.name} (${a.id})` : a.id }))}
          loading={wantAssistants && assistants.isFetching}
          helperText={assistantsError}
          slotProps={{ formHelperText: { error: Boolean(assistantsError) } }}
        />
      )}
      {!(selectable && llm.interactionType === 'assistant') && (
        <BrainText name="llmDetails.llmPrompt" label="Instructions" info={BRAIN_INFO.prompt} multiline minRows={3} maxRows={10} />
      )}
      <BrainText name="llmDetails.custom_text" label="Avatar Memory" info={BRAIN_INFO.memory} multiline minRows={2} maxRows={8} required />
      <Box sx={{ display: 'grid', gridTemplateColumns: { sm: '1fr', md: '1fr 1fr' }, columnGap: 2 }}>
        <BrainText name="llmDetails.llmMaxTokens" label="Max tokens" info={BRAIN_INFO.maxTokens} inputMode="numeric" />
        <BrainSelect
          name="llmDetails.agent_language"
          label="Agent language"
          info={BRAIN_INFO.agentLanguage}
          options={AGENT_LANGUAGE_OPTIONS}
        />
      </Box>
      <FormSwitch control={control} name="llmDetails.summaryEnabled" label="Remember the conversation (summary)" {...summaryInfo} />
    </Box>
  );
}
