// "Download my data" on the Account screen (issue 13, decision 625): the account's data as one
// JSON file — account, avatars, knowledge with its texts, functions, OAuth configs (no
// secrets), conversations with transcripts and summaries.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { errorLines } from '../../../lib/api-client';
import { useDownloadAccountExport } from '../api/download-account-export';

export function DownloadMyData() {
  const download = useDownloadAccountExport();
  return (
    <Box sx={{ mt: 2 }}>
      <Button variant="outlined" fullWidth disabled={download.isPending} onClick={() => download.mutate()}>
        {download.isPending ? 'Preparing your data…' : 'Download my data'}
      </Button>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5, px: 1 }}>
        Your account, avatars, knowledge, functions, OAuth configs and conversations with their transcripts, as JSON. Keys and secrets are
        left out.
      </Typography>
      {download.isError && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {errorLines(download.error).join(' ')}
        </Alert>
      )}
    </Box>
  );
}
