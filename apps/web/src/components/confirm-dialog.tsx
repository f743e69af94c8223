// The confirmation dialog shared by every delete and risky action: confirm, then a busy state,
// then the outcome; after success it closes by itself (2 s for avatars, 3 s for VPS: spec 1 §9).
import { useEffect, useRef, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { errorLines } from '../lib/api-client';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel?: string;
  confirmColor?: 'error' | 'primary';
  /** Runs the action; a returned string is shown as the success message. */
  onConfirm: () => Promise<string | void>;
  onClose: (outcome: 'cancelled' | 'done' | 'failed') => void;
  successMessage?: string;
  /** Bold first line of a failure; the server's messages follow (spec 2 §8). */
  errorTitle?: string;
  closeAfterSuccessMs?: number;
}

type Phase = { kind: 'confirm' } | { kind: 'busy' } | { kind: 'done'; message: string } | { kind: 'failed'; lines: string[] };

export function ConfirmDialog(props: ConfirmDialogProps) {
  const { open, title, children, confirmLabel = 'Delete', confirmColor = 'error', onConfirm, onClose } = props;
  const [phase, setPhase] = useState<Phase>({ kind: 'confirm' });
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => {
    if (open) setPhase({ kind: 'confirm' });
    return () => window.clearTimeout(timer.current);
  }, [open]);

  const run = async () => {
    setPhase({ kind: 'busy' });
    try {
      const message = (await onConfirm()) || props.successMessage || 'Done.';
      setPhase({ kind: 'done', message });
      timer.current = window.setTimeout(() => onClose('done'), props.closeAfterSuccessMs ?? 2000);
    } catch (err) {
      setPhase({ kind: 'failed', lines: errorLines(err) });
    }
  };

  const close = () => {
    window.clearTimeout(timer.current);
    onClose(phase.kind === 'done' ? 'done' : phase.kind === 'failed' ? 'failed' : 'cancelled');
  };

  return (
    <Dialog open={open} onClose={phase.kind === 'busy' ? undefined : close} maxWidth="xs" fullWidth aria-labelledby="confirm-dialog-title">
      <DialogTitle id="confirm-dialog-title">{title}</DialogTitle>
      <DialogContent>
        {phase.kind === 'confirm' && (typeof children === 'string' ? <Typography>{children}</Typography> : children)}
        {phase.kind === 'busy' && <CircularProgress size={28} aria-label="Working" />}
        {phase.kind === 'done' && <Alert severity="success">{phase.message}</Alert>}
        {phase.kind === 'failed' && (
          <Alert severity="error">
            <AlertTitle sx={{ fontWeight: 700 }}>{props.errorTitle ?? 'Delete Failed!'}</AlertTitle>
            {phase.lines.join(' ')}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        {phase.kind === 'confirm' && (
          <>
            <Button onClick={close}>Cancel</Button>
            <Button variant="contained" color={confirmColor} onClick={() => void run()}>
              {confirmLabel}
            </Button>
          </>
        )}
        {(phase.kind === 'done' || phase.kind === 'failed') && <Button onClick={close}>Close</Button>}
      </DialogActions>
    </Dialog>
  );
}
