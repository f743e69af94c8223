// What the editor shows when a save fails (spec 2 §8, spec 1 §8): StaleRequest and
// AvatarCreateLimitReached are persistent toasts with an action; any other failReason is looked
// up in the catalogue below and shown for 4 s; an unreadable failure gets the fallback message.
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import CloseIcon from '@mui/icons-material/Close';
import type { EnqueueSnackbar, SnackbarKey } from 'notistack';
import { closeSnackbar } from 'notistack';
import { ErrorCode, ERROR_MESSAGES, STALE_REQUEST_MESSAGE, AVATAR_LIMIT_MESSAGE } from '@parla/shared/errors';
import { TOAST_ERROR_MS } from '@parla/shared/limits';
import { AVATAR_FAIL_REASONS } from '@parla/shared/schemas/avatar';
import { ApiError } from '../../../lib/api-client';

/** failReason → message; reasons whose server text is already the best message map to null. */
const FAIL_REASON_MESSAGES: Record<string, string | null> = {
  [AVATAR_FAIL_REASONS.appearance]: 'The chosen appearance is not available any more. Please select an avatar from the grid.',
  [AVATAR_FAIL_REASONS.notFound]: 'This avatar no longer exists. Reload the page to see your current avatars.',
  [AVATAR_FAIL_REASONS.upload]: 'The upload could not be read. Please choose the file again and save.',
  [AVATAR_FAIL_REASONS.tooLarge]: null,
  [AVATAR_FAIL_REASONS.fileType]: null,
  [AVATAR_FAIL_REASONS.mediaLimit]: null,
};

export function saveErrorMessage(err: unknown): string {
  if (!(err instanceof ApiError)) return ERROR_MESSAGES[ErrorCode.FallbackError];
  const mapped = err.failReason ? FAIL_REASON_MESSAGES[err.failReason] : undefined;
  if (mapped) return mapped;
  if (err.errors.length) return err.errors.join(' ');
  return ERROR_MESSAGES[ErrorCode.FallbackError];
}

const closeAction = (key: SnackbarKey) => (
  <IconButton size="small" color="inherit" aria-label="Close" onClick={() => closeSnackbar(key)}>
    <CloseIcon fontSize="small" />
  </IconButton>
);

export function showStaleToast(enqueue: EnqueueSnackbar) {
  enqueue(STALE_REQUEST_MESSAGE, {
    variant: 'warning',
    persist: true,
    preventDuplicate: true,
    action: (key) => (
      <>
        <Button color="inherit" size="small" variant="outlined" onClick={() => window.location.reload()}>
          Reload Page
        </Button>
        {closeAction(key)}
      </>
    ),
  });
}

export function showLimitToast(enqueue: EnqueueSnackbar, goToAccount: () => void) {
  enqueue(AVATAR_LIMIT_MESSAGE, {
    variant: 'error',
    persist: true,
    // A persistent toast must not sit over the list's Add Avatar button (issue 17): bottom.
    anchorOrigin: { vertical: 'bottom', horizontal: 'center' },
    preventDuplicate: true,
    action: (key) => (
      <>
        <Button
          color="inherit"
          size="small"
          variant="outlined"
          onClick={() => {
            closeSnackbar(key);
            goToAccount();
          }}
        >
          Upgrade plan
        </Button>
        {closeAction(key)}
      </>
    ),
  });
}

export function showSaveError(enqueue: EnqueueSnackbar, err: unknown, goToAccount: () => void) {
  if (err instanceof ApiError && err.code === ErrorCode.StaleRequest) return showStaleToast(enqueue);
  if (err instanceof ApiError && err.code === ErrorCode.AvatarCreateLimitReached) return showLimitToast(enqueue, goToAccount);
  enqueue(saveErrorMessage(err), { variant: 'error', autoHideDuration: TOAST_ERROR_MS });
}
