// Leaving an editor with unsaved changes asks first (issue 17): another route, closing the tab,
// or a step inside the screen (another template, another item). `guard(run)` runs `run` at once
// when nothing is unsaved, otherwise after the person chooses Discard; Keep editing leaves
// everything as it was. The avatar editor has its own variant with a Save button.
import { useCallback, useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useBlocker } from 'react-router';

export const DISCARD_TITLE = 'Discard unsaved changes?';

export function DiscardChangesDialog({
  open,
  what,
  onKeep,
  onDiscard,
}: {
  open: boolean;
  what: string;
  onKeep(): void;
  onDiscard(): void;
}) {
  return (
    <Dialog open={open} onClose={onKeep} maxWidth="xs" fullWidth aria-labelledby="discard-changes-title">
      <DialogTitle id="discard-changes-title">{DISCARD_TITLE}</DialogTitle>
      <DialogContent>
        <Typography>{`${what} has changes that are not saved. If you leave now, they are lost.`}</Typography>
      </DialogContent>
      <DialogActions>
        <Button color="error" onClick={onDiscard}>
          Discard
        </Button>
        <Button variant="contained" onClick={onKeep} autoFocus>
          Keep editing
        </Button>
      </DialogActions>
    </Dialog>
  );
}

interface Pending {
  run(): void;
  cancel?(): void;
}

/** Guards navigation away from unsaved work; render `dialog` once in the screen. */
export function useUnsavedChanges(dirty: boolean, what: string) {
  const [pending, setPending] = useState<Pending | null>(null);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state === 'blocked') setPending({ run: () => blocker.proceed(), cancel: () => blocker.reset() });
  }, [blocker]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const guard = useCallback((run: () => void) => (dirty ? setPending({ run }) : run()), [dirty]);
  const dialog = (
    <DiscardChangesDialog
      open={pending !== null}
      what={what}
      onKeep={() => {
        pending?.cancel?.();
        setPending(null);
      }}
      onDiscard={() => {
        const next = pending;
        setPending(null);
        next?.run();
      }}
    />
  );
  return { guard, dialog };
}
