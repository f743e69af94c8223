// An avatar's past conversations (issue 13 item 5): the list, newest first, and the transcript of
// the one chosen — who said what and when, interrupted replies marked, the summary when there is
// one — with downloads as text and JSON. Opened from the avatar card ('Conversations').
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { errorLines } from '../../../../lib/api-client';
import { useConversations } from '../../api/get-conversations';
import { TranscriptView } from './transcript-view';

const PAGE_SIZE = 10;

export function ConversationsDialog({ avatarId, name, open, onClose }: { avatarId: string; name: string; open: boolean; onClose(): void }) {
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<string | null>(null);
  const list = useConversations(avatarId, page, PAGE_SIZE, open);
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / PAGE_SIZE)) : 1;
  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth aria-labelledby="conversations-title">
      <DialogTitle id="conversations-title">Conversations</DialogTitle>
      <DialogContent dividers sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '260px 1fr' }, gap: 2, minHeight: 360 }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography color="text.secondary" sx={{ mb: 1 }}>
            {name}
          </Typography>
          {list.isPending && <CircularProgress size={28} aria-label="Loading conversations" />}
          {list.isError && <Alert severity="error">{errorLines(list.error).join(' ')}</Alert>}
          {list.isSuccess && !list.data.conversations.length && <Typography color="text.secondary">No conversations yet.</Typography>}
          {list.isSuccess && list.data.conversations.length > 0 && (
            <List dense aria-label="Past conversations" sx={{ p: 0 }}>
              {list.data.conversations.map((c) => (
                <ListItemButton key={c.id} selected={c.id === chosen} onClick={() => setChosen(c.id)} sx={{ borderRadius: 1 }}>
                  <ListItemText
                    primary={new Date(c.startedAt).toLocaleString()}
                    secondary={`${c.userName} · ${c.messages} ${c.messages === 1 ? 'message' : 'messages'}${c.endedAt ? '' : ' · live'}`}
                  />
                </ListItemButton>
              ))}
            </List>
          )}
          {pages > 1 && (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 1 }}>
              <Button size="small" onClick={() => setPage((p) => p - 1)} disabled={page <= 1}>
                Newer
              </Button>
              <Typography variant="caption">
                {page} / {pages}
              </Typography>
              <Button size="small" onClick={() => setPage((p) => p + 1)} disabled={page >= pages}>
                Older
              </Button>
            </Box>
          )}
        </Box>
        <Box sx={{ minWidth: 0 }}>
          {chosen ? (
            <TranscriptView conversationId={chosen} />
          ) : (
            <Typography color="text.secondary">Choose a conversation to read its transcript.</Typography>
          )}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void list.refetch()} disabled={list.isFetching}>
          Refresh
        </Button>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
