// Dialogflow ES and CX (spec 3 §3): project id, the JSON key file (its text is stored,
// encrypted), the agent language; CX adds agent id and region id.
import Box from '@mui/material/Box';
import { AGENT_LANGUAGE_OPTIONS } from '../lib/agent-languages';
import { BRAIN_INFO } from './brain-field-info';
import { BrainSelect, BrainText, JsonKeyField } from './fields';

export function DialogflowForm({ cx }: { cx: boolean }) {
  const f = cx ? 'dialogFlowCX' : 'dialogFlowES';
  return (
    <Box>
      <BrainText name={`${f}.project_id`} label="Dialogflow Project Id" info={BRAIN_INFO.dfProject} required />
      {cx && (
        <Box sx={{ display: 'grid', gridTemplateColumns: { sm: '1fr', md: '1fr 1fr' }, columnGap: 2 }}>
          <BrainText name="dialogFlowCX.agent_id" label="Dialogflow Agent Id" info={BRAIN_INFO.dfAgent} required />
          <BrainText name="dialogFlowCX.region_id" label="Dialogflow Region Id" info={BRAIN_INFO.dfRegion} required placeholder="global" />
        </Box>
      )}
      <JsonKeyField name={`${f}.api_key`} fileName={`${f}.api_key_file_name`} label="Dialogflow JSON Key" info={BRAIN_INFO.dfKey} />
      <BrainSelect name={`${f}.agent_language`} label="Agent language" info={BRAIN_INFO.agentLanguage} options={AGENT_LANGUAGE_OPTIONS} />
    </Box>
  );
}
