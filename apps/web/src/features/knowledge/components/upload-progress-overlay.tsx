// The overlay over the Add Knowledge dialog while knowledge is submitted (spec 4 §4, §8).
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { UploadState } from './use-upload-progress';

export const UPLOAD_SUCCESS = 'Knowledge base uploaded successfully!';
export const UPLOAD_PARTIAL = 'Partial upload completed';
export const UPLOAD_FAILED = 'Upload failed';

export function UploadProgressOverlay({ state, onRetry, onClose }: { state: UploadState; onRetry?: () => void; onClose: () => void }) {
  if (state.status === 'idle') return null;
  const pct = Math.round(state.progress);
  return (
    <Box
      role="status"
      aria-live="polite"
      sx={{
        position: 'absolute',
        inset: 0,
        zIndex: 2,
        bgcolor: 'rgba(255,255,255,0.96)',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        p: 4,
      }}
    >
      <Box sx={{ width: '100%', maxWidth: 460 }}>
        {state.status === 'normal' && (
          <>
            <Typography variant="h3" component="p" gutterBottom>
              Uploading knowledge…
            </Typography>
            <LinearProgress
              variant="determinate"
              value={state.progress}
              aria-label="Upload progress"
              sx={{ height: 10, borderRadius: 5 }}
            />
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {pct}%{state.measured ? '' : ' (estimated)'}
            </Typography>
          </>
        )}
        {state.status === 'success' && (
          <Alert severity="success" variant="outlined">
            <AlertTitle>{UPLOAD_SUCCESS}</AlertTitle>
            Processing continues in the background; the table shows each item's status.
          </Alert>
        )}
        {state.status === 'partial' && (
          <Alert severity="warning" variant="outlined">
            <AlertTitle>{UPLOAD_PARTIAL}</AlertTitle>
            {state.message}
          </Alert>
        )}
        {state.status === 'error' && (
          <Alert severity="error" variant="outlined">
            <AlertTitle>{UPLOAD_FAILED}</AlertTitle>
            {state.message}
          </Alert>
        )}
        {(state.status === 'partial' || state.status === 'error') && (
          <Stack direction="row" spacing={1} sx={{ mt: 2, justifyContent: 'flex-end' }}>
            <Button onClick={onClose}>Close</Button>
            {onRetry && (
              <Button variant="contained" onClick={onRetry}>
                {state.status === 'partial' ? 'Retry failed' : 'Retry'}
              </Button>
            )}
          </Stack>
        )}
      </Box>
    </Box>
  );
}
