// The small dialogs of the avatar screen: 'Avatar created' (echo-back mode), the save
// confirmation whose text depends on the tab, and the unsaved-changes Save/Discard prompt.
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import { AVATAR_MESSAGES } from '@parla/shared/schemas/avatar';

export function AvatarCreatedDialog({ name, open, onClose }: { name: string; open: boolean; onClose(): void }) {
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="avatar-created-title">
      <DialogTitle id="avatar-created-title">Avatar created</DialogTitle>
      <DialogContent>
        <Typography gutterBottom>
          <strong>{name}</strong> has been created in echo-back mode: it repeats what it hears.
        </Typography>
        <Typography color="text.secondary">
          To give it a brain, select it in the left panel and click EDIT, then open the Brain tab.
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          OK
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The confirmation text of each tab (spec 2 §4). */
export const SAVE_TEXTS = [
  'Save the appearance and name of this avatar?',
  'Save the background, lighting and 3D environment of this avatar?',
  'Save the brain of this avatar? New conversations use it at once.',
  'Save the advanced settings of this avatar?',
  'Save the configuration files of this avatar? Pages that embed it show the change on their next load.',
];

export function SaveConfirmDialog({
  open,
  tab,
  typeChanged,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  tab: number;
  typeChanged: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  return (
    <Dialog open={open} onClose={onCancel} maxWidth="xs" fullWidth aria-labelledby="save-confirm-title">
      <DialogTitle id="save-confirm-title">Save Avatar</DialogTitle>
      <DialogContent>
        <Typography>{SAVE_TEXTS[tab] ?? SAVE_TEXTS[0]}</Typography>
        {typeChanged && (
          <Alert severity="warning" sx={{ mt: 2 }}>
            {AVATAR_MESSAGES.typeChangeWarning}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button variant="contained" onClick={onConfirm}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function UnsavedChangesDialog({
  open,
  name,
  onSave,
  onDiscard,
  onCancel,
}: {
  open: boolean;
  name: string;
  onSave(): void;
  onDiscard(): void;
  onCancel(): void;
}) {
  return (
    <Dialog open={open} onClose={onCancel} maxWidth="xs" fullWidth aria-labelledby="unsaved-title">
      <DialogTitle id="unsaved-title">Unsaved changes</DialogTitle>
      <DialogContent>
        <Typography>
          {name ? `${name} has changes that are not saved.` : 'This avatar has changes that are not saved.'} Save them or discard them?
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button color="error" onClick={onDiscard}>
          Discard
        </Button>
        <Button variant="contained" onClick={onSave}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
