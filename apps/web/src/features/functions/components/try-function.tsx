// Try it (issue 39 item 7): the code as typed runs in the sandbox with sample arguments, with the
// same limits as a live call; the result or the error is shown. Nothing is saved or submitted.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { TryFunctionResponse } from '@parla/shared/schemas/functions';
import { errorLines } from '../../../lib/api-client';
import { useTryFunction } from '../api/try-function';

/** The first public function of the file: the one Try calls unless the customer names another. */
export function firstFunctionName(code: string): string {
  return /^def ([A-Za-z][A-Za-z0-9_]*)\s*\(/m.exec(code)?.[1] ?? '';
}

export function TryFunction({ code, id }: { code: string; id?: string }) {
  const run = useTryFunction();
  const [name, setName] = useState('');
  const [args, setArgs] = useState('{}');
  const [outcome, setOutcome] = useState<TryFunctionResponse | null>(null);
  const [refused, setRefused] = useState<string[] | null>(null);
  const functionName = name.trim() || firstFunctionName(code);

  const start = () => {
    setOutcome(null);
    setRefused(null);
    run.mutate(
      { ...(id ? { id } : {}), code, functionName, arguments: args },
      { onSuccess: setOutcome, onError: (err) => setRefused(errorLines(err)) },
    );
  };

  return (
    <Box component="section" aria-labelledby="try-it-title" sx={{ mt: 3 }}>
      <Typography id="try-it-title" variant="h3" component="h2">
        Try it
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        Runs the code above in the sandbox, with the same limits as a call from an avatar. Nothing is saved.
      </Typography>
      <Stack spacing={2} sx={{ mt: 2 }}>
        <TextField
          label="Function"
          value={name}
          placeholder={firstFunctionName(code) || 'function_name'}
          onChange={(e) => setName(e.target.value)}
          size="small"
          // The label stays above, so the placeholder shows which function of the file will run.
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          label="Arguments (JSON)"
          value={args}
          onChange={(e) => setArgs(e.target.value)}
          multiline
          minRows={2}
          slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
        />
        <Box>
          <Button variant="outlined" onClick={start} disabled={run.isPending || !code.trim() || !functionName}>
            {run.isPending ? 'Running…' : 'Run'}
          </Button>
        </Box>
        {refused && <Alert severity="error">{refused.join(' ')}</Alert>}
        {outcome && (
          <Alert severity={outcome.ok ? 'success' : 'error'} role="status">
            <Typography variant="subtitle2" component="p">
              {outcome.ok ? `Result (${outcome.durationMs} ms)` : `Error (${outcome.durationMs} ms)`}
            </Typography>
            <Box component="pre" sx={{ m: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontFamily: 'monospace' }}>
              {outcome.ok ? outcome.result : outcome.error}
            </Box>
          </Alert>
        )}
      </Stack>
    </Box>
  );
}
