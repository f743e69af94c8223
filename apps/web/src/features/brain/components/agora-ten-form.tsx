// Agora TEN: the runtime's agent joins an Agora channel with the project's App ID and App
// Certificate (the certificate is stored encrypted, shown masked).
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { BRAIN_INFO } from './brain-field-info';
import { BrainText, SecretField } from './fields';

export function AgoraTenForm() {
  return (
    <Box>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        Agora TEN runs the conversation, with its own speech recognition and voice.
      </Typography>
      <BrainText name="agoraTen.app_id" label="Agora App ID" info={BRAIN_INFO.agoraAppId} required />
      <SecretField name="agoraTen.app_certificate" label="Agora App Certificate" info={BRAIN_INFO.agoraCertificate} required />
    </Box>
  );
}
