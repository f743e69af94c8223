// One transcript: its summary, the messages as a chat (the user's on the right), and its
// downloads as text and JSON.
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import { errorLines } from '../../../../lib/api-client';
import { downloadTranscript, useTranscript } from '../../api/get-transcript';

export function TranscriptView({ conversationId }: { conversationId: string }) {
  const t = useTranscript(conversationId);
  if (t.isPending) return <CircularProgress size={28} aria-label="Loading the transcript" />;
  if (t.isError) return <Alert severity="error">{errorLines(t.error).join(' ')}</Alert>;
  const { conversation: c, messages } = t.data;
  return (
    <Box component="section" aria-label="Transcript" sx={{ display: 'grid', gap: 1.5 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
        <Box sx={{ flex: 1, minWidth: 180 }}>
          <Typography sx={{ fontWeight: 600 }}>{c.userName}</Typography>
          <Typography variant="caption" color="text.secondary">
            {new Date(c.startedAt).toLocaleString()} – {c.endedAt ? new Date(c.endedAt).toLocaleTimeString() : 'live'}
            {c.endReason ? ` · ended: ${c.endReason}` : ''}
          </Typography>
        </Box>
        <Button size="small" variant="outlined" startIcon={<DownloadIcon />} onClick={() => downloadTranscript(t.data, 'txt')}>
          Download text
        </Button>
        <Button size="small" variant="outlined" startIcon={<DownloadIcon />} onClick={() => downloadTranscript(t.data, 'json')}>
          Download JSON
        </Button>
      </Box>
      {c.summary && (
        <Alert severity="info" icon={false}>
          <AlertTitle>Summary</AlertTitle>
          {c.summary}
        </Alert>
      )}
      {c.endDetail && <Alert severity="warning">{c.endDetail}</Alert>}
      <Box
        role="log"
        aria-label="Messages"
        sx={{
          display: 'flex',
          flexDirection: 'column',
          gap: 0.75,
          maxHeight: 420,
          overflowY: 'auto',
          p: 1,
          bgcolor: 'action.hover',
          borderRadius: 1,
        }}
      >
        {!messages.length && <Typography color="text.secondary">Nothing was said.</Typography>}
        {messages.map((m, i) => (
          <Box key={i} sx={{ alignSelf: m.role === 'user' ? 'flex-end' : 'flex-start', maxWidth: '80%' }}>
            <Box
              sx={{
                px: 1.25,
                py: 0.75,
                borderRadius: 2,
                bgcolor: m.role === 'user' ? 'primary.main' : 'background.paper',
                color: m.role === 'user' ? 'primary.contrastText' : 'text.primary',
                boxShadow: 1,
              }}
            >
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {m.text}
              </Typography>
            </Box>
            <Typography variant="caption" color="text.secondary" sx={{ display: 'block', textAlign: m.role === 'user' ? 'right' : 'left' }}>
              {m.role === 'user' ? c.userName : c.avatarName} · {new Date(m.at).toLocaleTimeString()}
              {m.interrupted ? ' · interrupted' : ''}
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
