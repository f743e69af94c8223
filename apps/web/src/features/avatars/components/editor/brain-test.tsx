// The Brain tab's TEST BRAIN (issue 39 item 3): the brain as the editor holds it, saved or not,
// asked one real question by the server; what happened is shown in the customer's words, with
// the answer when there is one. A new avatar has nothing to test until it is saved (it starts
// in echo mode).
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useFormContext } from 'react-hook-form';
import {
  HEARING_TEST_SENTENCE,
  type BrainTestHearing,
  type BrainTestRequest,
  type BrainTestResponse,
} from '@parla/shared/schemas/brain-test';
import { errorLines } from '../../../../lib/api-client';
import { testBrain } from '../../../brain/api/test-brain';
import { payloadFrom, type EditorValues } from '../../lib/editor-values';

type Outcome = { kind: 'result'; result: BrainTestResponse } | { kind: 'error'; lines: string[] };

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function BrainTest() {
  const { getValues } = useFormContext<EditorValues>();
  const [running, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  if (!getValues('id')) return null;

  const run = async () => {
    setRunning(true);
    setOutcome(null);
    try {
      const result = await testBrain(payloadFrom(getValues()) as BrainTestRequest);
      setOutcome({ kind: 'result', result });
    } catch (err) {
      setOutcome({ kind: 'error', lines: errorLines(err) });
    } finally {
      setRunning(false);
    }
  };

  return (
    <Box sx={{ mt: 3 }} aria-live="polite">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Button
          variant="outlined"
          onClick={() => void run()}
          disabled={running}
          startIcon={running ? <CircularProgress size={16} /> : null}
        >
          Test brain
        </Button>
        <Typography variant="body2" color="text.secondary">
          Asks the brain one question with the settings above, saved or not, and lets the speech recognition hear a sentence. Nothing is
          saved.
        </Typography>
      </Box>
      {outcome?.kind === 'error' && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {outcome.lines.join(' ')}
        </Alert>
      )}
      {outcome?.kind === 'result' && (
        <Alert severity={outcome.result.ok ? 'success' : 'error'} sx={{ mt: 2 }}>
          <Typography variant="body2">
            {outcome.result.message} ({seconds(outcome.result.ms)})
          </Typography>
          {outcome.result.reply ? (
            <Typography variant="body2" sx={{ mt: 1, fontStyle: 'italic', overflowWrap: 'anywhere' }}>
              Answer: “{outcome.result.reply}”
            </Typography>
          ) : null}
          {outcome.result.hearing ? <Hearing hearing={outcome.result.hearing} /> : null}
        </Alert>
      )}
    </Box>
  );
}

/** The speech recognition's part: what it was told, and what it heard. */
function Hearing({ hearing }: { hearing: BrainTestHearing }) {
  return (
    <Box sx={{ mt: 1 }}>
      <Typography variant="body2">{hearing.message}</Typography>
      {hearing.heard !== null ? (
        <Typography variant="body2" sx={{ fontStyle: 'italic', overflowWrap: 'anywhere' }}>
          Said: “{HEARING_TEST_SENTENCE}” Heard: “{hearing.heard}”
        </Typography>
      ) : null}
    </Box>
  );
}
