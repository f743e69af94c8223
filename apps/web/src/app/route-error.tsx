import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorCode, ERROR_MESSAGES } from '@parla/shared/errors';
import { logger } from '../lib/logger';

/** Last-resort boundary of the router: a failed screen load or a render error. */
export function RouteError() {
  const error = useRouteError();
  logger.error('route error', error);
  const chunkFailed = error instanceof Error && /dynamically imported module|Importing a module script failed/.test(error.message);
  return (
    <Container maxWidth="sm" sx={{ py: 8 }}>
      <Alert
        severity="error"
        action={
          <Button color="inherit" onClick={() => window.location.reload()}>
            Reload Page
          </Button>
        }
      >
        {isRouteErrorResponse(error) && error.status === 404
          ? 'This page does not exist.'
          : chunkFailed
            ? ERROR_MESSAGES[ErrorCode.NetworkError]
            : ERROR_MESSAGES[ErrorCode.Unknown]}
      </Alert>
    </Container>
  );
}
