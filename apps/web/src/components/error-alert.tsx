import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { errorLines } from '../lib/api-client';

/** A failure with a header and the server's message list. */
export function ErrorAlert({ title, error }: { title: string; error: unknown }) {
  const lines = errorLines(error);
  return (
    <Alert severity="error" sx={{ mt: 2 }}>
      <AlertTitle>{title}</AlertTitle>
      {lines.length === 1 ? (
        lines[0]
      ) : (
        <ul style={{ margin: 0, paddingLeft: 18 }}>
          {lines.map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      )}
    </Alert>
  );
}
