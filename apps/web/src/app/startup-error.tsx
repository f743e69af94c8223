import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import { ErrorCode, ERROR_MESSAGES } from '@parla/shared/errors';

/** Shown when the portal cannot reach its server at all (no settings, no key). */
export function StartupError({ message, onRetry }: { message?: string; onRetry: () => void }) {
  return (
    <Container maxWidth="sm" sx={{ py: 8, fontFamily: 'system-ui, sans-serif' }}>
      <Alert
        severity="error"
        action={
          <Button color="inherit" onClick={onRetry}>
            Retry
          </Button>
        }
      >
        {message ?? ERROR_MESSAGES[ErrorCode.NetworkError]}
      </Alert>
    </Container>
  );
}
