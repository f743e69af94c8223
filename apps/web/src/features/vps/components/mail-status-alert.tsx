// The mail outbox's health on the administrators' status screen (decision 012): one line while
// mail delivery keeps failing, nothing otherwise (a failed look-up says nothing either: the
// screen is about the nodes).
import Alert from '@mui/material/Alert';
import { mailFailingMessage } from '@parla/shared/schemas/admin';
import { useMailStatus } from '../api/get-mail-status';

export function MailStatusAlert() {
  const query = useMailStatus();
  const mail = query.data?.mail;
  if (!mail?.failing) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2, wordBreak: 'break-word' }}>
      {mailFailingMessage(mail)}
    </Alert>
  );
}
