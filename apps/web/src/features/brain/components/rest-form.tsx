// The REST endpoint form (spec 3 §3): the customer's endpoint, its key, the avatar memory.
import Box from '@mui/material/Box';
import { useFormContext } from 'react-hook-form';
import type { BrainForm } from '@parla/shared/schemas/brain-forms';
import { FormSwitch } from '../../../components/form/form-switch';
import { useFieldInfo } from '../../../components/info-panel';
import { AGENT_LANGUAGE_OPTIONS } from '../lib/agent-languages';
import { BRAIN_INFO } from './brain-field-info';
import { BrainSelect, BrainText, SecretField } from './fields';

export function RestForm() {
  const { control } = useFormContext<BrainForm>();
  const summaryInfo = useFieldInfo(BRAIN_INFO.summary);
  return (
    <Box>
      <BrainText
        name="restEndpoint.base_url"
        label="REST Endpoint URL"
        info={BRAIN_INFO.restUrl}
        placeholder="https://example.com/avatar-events"
        required
      />
      <SecretField name="restEndpoint.api_key" label="REST API Key" info={BRAIN_INFO.restKey} required />
      <BrainText
        name="restEndpoint.custom_text"
        label="Avatar Memory"
        info={BRAIN_INFO.memory}
        multiline
        minRows={2}
        maxRows={8}
        required
      />
      <BrainSelect
        name="restEndpoint.agent_language"
        label="Agent language"
        info={BRAIN_INFO.agentLanguage}
        options={AGENT_LANGUAGE_OPTIONS}
      />
      <FormSwitch control={control} name="restEndpoint.summary_enabled" label="Remember the conversation (summary)" {...summaryInfo} />
    </Box>
  );
}
