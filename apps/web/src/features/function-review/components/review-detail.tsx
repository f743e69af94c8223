// One function under review: its code (read only, Python highlighting), approve or reject with
// a reason, and the audit trail of submissions and decisions. The decision carries the hash of
// the code shown, so code changed meanwhile is never approved unseen.
import { useState } from 'react';
import { python } from '@codemirror/lang-python';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import CodeMirror, { EditorView } from '@uiw/react-codemirror';
import { useSnackbar } from 'notistack';
import { TOAST_SUCCESS_MS } from '@parla/shared/limits';
import type { ReviewFunctionRecord } from '@parla/shared/schemas/functions';
import { errorLines } from '../../../lib/api-client';
import { useDecideFunction } from '../api/decide-function';
import { useFunctionHistory } from '../api/get-function-history';

const readOnlyLabel = EditorView.contentAttributes.of({ 'aria-label': 'Function code', 'aria-readonly': 'true' });

const ACTIONS: Record<string, string> = {
  'function.submitted': 'Submitted',
  'function.resubmitted': 'Code changed (back to review)',
  'function.approved': 'Approved',
  'function.rejected': 'Rejected',
  'function.deleted': 'Deleted',
};

/** `onDecided`: the decision was saved (the list's page may no longer hold this function). */
export function ReviewDetail({ fn, onDecided }: { fn: ReviewFunctionRecord; onDecided?: (fn: ReviewFunctionRecord) => void }) {
  const { enqueueSnackbar } = useSnackbar();
  const decide = useDecideFunction();
  const history = useFunctionHistory(fn.id);
  const [reason, setReason] = useState(fn.reviewReason ?? '');
  const [reasonError, setReasonError] = useState(false);

  const send = (approve: boolean) => {
    if (!approve && !reason.trim()) return setReasonError(true);
    setReasonError(false);
    decide.mutate(
      { id: fn.id, approve, reason: reason.trim() || undefined, codeHash: fn.codeHash },
      {
        onSuccess: () => {
          onDecided?.({ ...fn, approvalStatus: approve ? 'Approved' : 'Rejected' });
          enqueueSnackbar(approve ? `"${fn.name}" approved.` : `"${fn.name}" rejected.`, {
            variant: 'success',
            autoHideDuration: TOAST_SUCCESS_MS,
          });
        },
      },
    );
  };

  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h2" component="h1" sx={{ wordBreak: 'break-all' }}>
          {fn.name}
        </Typography>
        <Chip
          label={fn.approvalStatus}
          color={fn.approvalStatus === 'Approved' ? 'primary' : fn.approvalStatus === 'Rejected' ? 'error' : 'warning'}
        />
      </Stack>
      <Typography color="text.secondary" sx={{ mt: 0.5 }}>
        By {fn.ownerName} ({fn.ownerEmail}) · created {new Date(fn.createDate).toLocaleString()} · last change{' '}
        {new Date(fn.lastUpdateDate).toLocaleString()}
      </Typography>
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5, fontFamily: 'monospace' }}>
        SHA-256 {fn.codeHash}
      </Typography>
      <Box sx={{ mt: 2, border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden', fontSize: 14 }}>
        <CodeMirror
          value={fn.code}
          editable={false}
          readOnly
          extensions={[python(), readOnlyLabel]}
          maxHeight="480px"
          basicSetup={{ foldGutter: false }}
        />
      </Box>
      <TextField
        label="Reason"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        multiline
        minRows={2}
        error={reasonError}
        helperText={reasonError ? 'A reason is required to reject a function.' : 'Shown to the author. Required to reject.'}
      />
      <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
        {/* An approved function has nothing left to approve (issue 17); Reject withdraws it. */}
        <Button variant="contained" onClick={() => send(true)} disabled={decide.isPending || fn.approvalStatus === 'Approved'}>
          Approve
        </Button>
        <Button variant="outlined" color="error" onClick={() => send(false)} disabled={decide.isPending}>
          Reject
        </Button>
      </Stack>
      {decide.isError && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {errorLines(decide.error).join(' ')}
        </Alert>
      )}
      <Typography variant="h3" component="h2" sx={{ mt: 4 }}>
        Audit trail
      </Typography>
      {history.isError && (
        <Alert severity="error">Oops! Something went wrong. We couldn't load the audit trail. Please try again later.</Alert>
      )}
      <Table size="small" aria-label="Audit trail" sx={{ mt: 1 }}>
        <TableHead>
          <TableRow>
            <TableCell>When</TableCell>
            <TableCell>What</TableCell>
            <TableCell>Who</TableCell>
            <TableCell>Reason</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {history.data?.map((h) => (
            <TableRow key={h.id}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{new Date(h.at).toLocaleString()}</TableCell>
              <TableCell>{ACTIONS[h.action] ?? h.action}</TableCell>
              <TableCell>{h.actorEmail ?? '---'}</TableCell>
              <TableCell>{h.reason ?? ''}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Paper>
  );
}
