// ElevenLabs Conversational AI (spec 3 §3, §4): the agent id is checked 500 ms after typing
// stops (ids under 12 characters stay idle); public agents work without a key (which is then
// cleared), private ones with it; a refused key or an unknown agent says so.
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { useFormContext, useWatch } from 'react-hook-form';
import { AGENT_CHECK_DEBOUNCE_MS, AGENT_ID_MIN_LENGTH } from '@parla/shared/brain-limits';
import { BRAIN_MESSAGES, type AgentStatus, type ConnectionType } from '@parla/shared/schemas/brain';
import { agentKeyPresent, isMaskedSecret, type BrainForm } from '@parla/shared/schemas/brain-forms';
import { useFieldInfo } from '../../../components/info-panel';
import { checkAgent } from '../api/check-agent';
import { applyAgentStatus } from '../lib/transitions';
import { useDebounced } from '../lib/use-debounced';
import { BRAIN_INFO } from './brain-field-info';
import { BrainText, SecretField } from './fields';

/** The ElevenLabs form's own hint for an idle id (spec 3 §4). */
const SHORT_HINT_BELOW = 10;

const STATUS_TEXT: Partial<Record<AgentStatus, { severity: 'success' | 'error'; text: string }>> = {
  public: { severity: 'success', text: 'Public agent: it works without an API key.' },
  private: { severity: 'success', text: 'Private agent: the API key works for it.' },
};

export function ThirdPartyForm({ avatarId }: { avatarId?: string }) {
  const { control, getValues, setValue, clearErrors, setError } = useFormContext<BrainForm>();
  const agentId = useWatch({ control, name: 'elevenLabsConversationAI.agent_id' }) ?? '';
  const apiKey = useWatch({ control, name: 'elevenLabsConversationAI.api_key' }) ?? '';
  const status = useWatch({ control, name: 'elevenLabsConversationAI.status' });
  const connection = useWatch({ control, name: 'elevenLabsConversationAI.connection_type' });
  // Debounce one string: a fresh object every render would never settle.
  const settledText = useDebounced(`${agentId.trim()}\n${apiKey}`, AGENT_CHECK_DEBOUNCE_MS);
  const [checking, setChecking] = useState(false);
  const [message, setMessage] = useState<string | undefined>();
  const connectionInfo = useFieldInfo(BRAIN_INFO.connectionType);

  useEffect(() => {
    const [id = '', settledKey = ''] = settledText.split('\n');
    const set = (s: AgentStatus) =>
      setValue('elevenLabsConversationAI', applyAgentStatus(getValues('elevenLabsConversationAI'), s), { shouldDirty: true });
    if (id.length < AGENT_ID_MIN_LENGTH) {
      set('idle');
      setMessage(undefined);
      if (id.length > 0 && id.length < SHORT_HINT_BELOW)
        setError('elevenLabsConversationAI.agent_id', { message: BRAIN_MESSAGES.agentIdTooShort });
      return;
    }
    const abort = new AbortController();
    setChecking(true);
    const key = agentKeyPresent(settledKey) ? settledKey : undefined;
    checkAgent({ agent_id: id, ...(key ? { api_key: key } : {}), ...(key && isMaskedSecret(key) ? { avatarId } : {}) }, abort.signal)
      .then((r) => {
        set(r.status);
        setMessage(r.message);
        if (r.status === 'public' || r.status === 'private') clearErrors('elevenLabsConversationAI');
      })
      .catch(() => {
        if (abort.signal.aborted) return;
        set('invalid_agent_id');
        setMessage(BRAIN_MESSAGES.checkFailed);
      })
      .finally(() => {
        if (!abort.signal.aborted) setChecking(false);
      });
    return () => abort.abort();
  }, [settledText, avatarId, getValues, setValue, clearErrors, setError]);

  const shown = STATUS_TEXT[status];
  return (
    <Box>
      <BrainText
        name="elevenLabsConversationAI.agent_id"
        label="Agent ID"
        info={BRAIN_INFO.agentId}
        required
        slotProps={{ input: { endAdornment: checking ? <CircularProgress size={18} aria-label="Checking the agent" /> : undefined } }}
      />
      <SecretField
        name="elevenLabsConversationAI.api_key"
        label="API Key"
        info={BRAIN_INFO.agentKey}
        disabled={status === 'public'}
        helperText={status === 'public' ? 'Not needed for a public agent.' : undefined}
      />
      {!checking && shown && (
        <Alert severity={shown.severity} sx={{ mt: 1 }}>
          {shown.text}
        </Alert>
      )}
      {!checking && message && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {message}
        </Alert>
      )}
      <FormControl sx={{ mt: 1.5 }} {...connectionInfo}>
        <FormLabel id="agent-connection-type">Connection type</FormLabel>
        <RadioGroup
          row
          aria-labelledby="agent-connection-type"
          value={connection}
          onChange={(_e, v) => setValue('elevenLabsConversationAI.connection_type', v as ConnectionType, { shouldDirty: true })}
        >
          <FormControlLabel value="webrtc" control={<Radio />} label="WebRTC" />
          <FormControlLabel value="websocket" control={<Radio />} label="WebSocket" />
        </RadioGroup>
      </FormControl>
      <Typography variant="caption" color="text.secondary" component="p">
        The agent listens and speaks itself, so Speech to Text and Text to Speech are None.
      </Typography>
    </Box>
  );
}
