// The LLM form (spec 3 §3, §4): base URL of the ten providers, key, model list read with the key,
// prompt or assistant (Composite, no realtime flag, OpenAI only), assistants fetched a second
// after the key is there, instructions, memory, max tokens. Simple mode: Groq and its models.
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { useFormContext, useWatch } from 'react-hook-form';
import { ASSISTANT_FETCH_DELAY_MS } from '@parla/shared/brain-limits';
import type { BrainCatalogue } from '@parla/shared/provider-urls';
import { BRAIN_MESSAGES } from '@parla/shared/schemas/brain';
import { isMaskedSecret, type BrainForm, type InteractionType } from '@parla/shared/schemas/brain-forms';
import { FormSwitch } from '../../../components/form/form-switch';
import { useFieldInfo } from '../../../components/info-panel';
import { errorLines } from '../../../lib/api-client';
import { useAssistants } from '../api/get-assistants';
import { useLlmModels } from '../api/get-llm-models';
import { AGENT_LANGUAGE_OPTIONS } from '../lib/agent-languages';
import { changeBaseUrl, interactionTypeSelectable } from '../lib/transitions';
import { useDebounced } from '../lib/use-debounced';
import { BRAIN_INFO } from './brain-field-info';
import { BrainSelect, BrainText, SecretField } from './fields';

const KEY_SETTLE_MS = 500;

export function LlmForm({ catalogue, avatarId }: { catalogue: BrainCatalogue; avatarId?: string }) {
  const { control, getValues, setValue } = useFormContext<BrainForm>();
  const mode = useWatch({ control, name: 'setupMode' });
  const realtime = useWatch({ control, name: 'realtime' });
  const llm = useWatch({ control, name: 'llmDetails' });
  const simple = mode === 'Simple';
  const key = useDebounced(llm.llmAPIKey ?? '', KEY_SETTLE_MS);
  const ready = !simple && Boolean(llm.url) && key.trim().length > 0;
  const models = useLlmModels(ready ? { baseUrl: llm.url, apiKey: key, ...(isMaskedSecret(key) ? { avatarId } : {}) } : null);
  const selectable = interactionTypeSelectable({ setupMode: mode, realtime, llmDetails: llm }, catalogue);
  const assistantKey = useDebounced(llm.llmAPIKey ?? '', ASSISTANT_FETCH_DELAY_MS);
  const wantAssistants = selectable && llm.interactionType === 'assistant' && assistantKey.trim().length > 0;
  const assistants = useAssistants(wantAssistants ? { baseUrl: llm.url, apiKey: assistantKey, ...(isMaskedSecret(assistantKey) ? { avatarId } : {}) } : null);
  const typeInfo = useFieldInfo(BRAIN_INFO.interactionType);
  const summaryInfo = useFieldInfo(BRAIN_INFO.summary);

  const modelOptions = simple ? catalogue.singleModeModelsList.map((m) => ({ value: m, label: m })) : (models.data?.models ?? []).map((m) => ({ value: m, label: m }));
  const modelsError = !simple && models.isError ? errorLines(models.error).join(' ') : undefined;
  const assistantsError = assistants.isError
    ? (assistants.error as { failReason?: string }).failReason === 'INVALID_KEY'
      ? BRAIN_MESSAGES.invalidKey
      : BRAIN_MESSAGES.assistantsFailed
    : undefined;

  return (
    <Box>
      <BrainSelect
        name="llmDetails.url"
        label="Base URL"
        info={BRAIN_INFO.llmUrl}
        disabled={simple}
        options={catalogue.llmProviders.map((p) => ({ value: p.baseUrl, label: `${p.name} — ${p.baseUrl}` }))}
        onValueChange={(v) => setValue('llmDetails', changeBaseUrl(getValues('llmDetails'), String(v), catalogue), { shouldDirty: true })}
      />
      {!simple && <SecretField name="llmDetails.llmAPIKey" label="API Key" info={BRAIN_INFO.llmKey} />}
      <BrainSelect
        name="llmDetails.llmModel"
        label="Model"
        info={BRAIN_INFO.llmModel}
        options={modelOptions}
        loading={!simple && ready && models.isFetching}
        helperText={modelsError ?? (!simple && !ready ? 'Enter the API key to list the models.' : undefined)}
        slotProps={{ formHelperText: { error: Boolean(modelsError) } }}
      />
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
      {!(selectable && llm.interactionType === 'assistant') && <BrainText name="llmDetails.llmPrompt" label="Instructions" info={BRAIN_INFO.prompt} multiline minRows={3} maxRows={10} />}
      <BrainText name="llmDetails.custom_text" label="Avatar Memory" info={BRAIN_INFO.memory} multiline minRows={2} maxRows={8} required />
      <Box sx={{ display: 'grid', gridTemplateColumns: { sm: '1fr', md: '1fr 1fr' }, columnGap: 2 }}>
        <BrainText name="llmDetails.llmMaxTokens" label="Max tokens" info={BRAIN_INFO.maxTokens} inputMode="numeric" />
        <BrainSelect name="llmDetails.agent_language" label="Agent language" info={BRAIN_INFO.agentLanguage} options={AGENT_LANGUAGE_OPTIONS} />
      </Box>
      <FormSwitch control={control} name="llmDetails.summaryEnabled" label="Remember the conversation (summary)" {...summaryInfo} />
    </Box>
  );
}
