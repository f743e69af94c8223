// The insight over a date range: the figures, conversations per day, the top questions, and the
// range's transcripts — searchable, readable one by one, exportable as CSV or JSON.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { errorLines } from '../../../../lib/api-client';
import { downloadInsightExport, useInsight, useInsightConversations } from '../../api/get-insight';
import { TranscriptView } from '../conversations/transcript-view';
import { DayChart } from './day-chart';

const PAGE_SIZE = 10;
const dayOf = (d: Date) => d.toISOString().slice(0, 10);
const percent = (share: number) => `${Math.round(share * 100)}%`;

function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${s % 60} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Box role="group" aria-label={label} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, minWidth: 130 }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6">{value}</Typography>
    </Box>
  );
}

export function InsightPanel({ avatarId }: { avatarId: string }) {
  const [from, setFrom] = useState(() => dayOf(new Date(Date.now() - 29 * 86_400_000)));
  const [to, setTo] = useState(() => dayOf(new Date()));
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<string | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const insight = useInsight(avatarId, from, to);
  const list = useInsightConversations(avatarId, from, to, search, page, PAGE_SIZE);
  const exportAs = (format: 'csv' | 'json') => {
    setExportError(null);
    downloadInsightExport(avatarId, from, to, search, format).catch((err: unknown) => setExportError(errorLines(err).join(' ')));
  };
  const d = insight.data;
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
        <TextField
          label="From"
          type="date"
          size="small"
          value={from}
          onChange={(e) => (setFrom(e.target.value), setPage(1))}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          label="To"
          type="date"
          size="small"
          value={to}
          onChange={(e) => (setTo(e.target.value), setPage(1))}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        {insight.isFetching && <CircularProgress size={20} aria-label="Loading insight" />}
      </Box>
      {insight.isError && <Alert severity="error">{errorLines(insight.error).join(' ')}</Alert>}
      {d && (
        <>
          <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
            <Figure label="Conversations" value={String(d.conversations)} />
            <Figure label="Total duration" value={duration(d.totalSeconds)} />
            <Figure label="Median duration" value={duration(d.medianSeconds)} />
            <Figure label="Turns" value={String(d.turns)} />
            <Figure label="Answered from knowledge" value={percent(d.knowledgeShare)} />
            <Figure label="Unanswered" value={percent(d.unansweredRate)} />
          </Box>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '3fr 2fr' }, gap: 2 }}>
            <DayChart days={d.days} />
            <Box>
              <Typography variant="subtitle2">Top questions</Typography>
              {d.topQuestions.length ? (
                <List dense aria-label="Top questions" sx={{ p: 0 }}>
                  {d.topQuestions.map((q) => (
                    <ListItem key={q.text} disableGutters>
                      <ListItemText primary={q.text} secondary={`${q.count} ${q.count === 1 ? 'time' : 'times'}`} />
                    </ListItem>
                  ))}
                </List>
              ) : (
                <Typography color="text.secondary">No questions in this range.</Typography>
              )}
            </Box>
          </Box>
        </>
      )}
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
        <TextField
          label="Search transcripts"
          size="small"
          value={search}
          onChange={(e) => (setSearch(e.target.value), setPage(1))}
          sx={{ minWidth: 260 }}
        />
        <Button variant="outlined" size="small" onClick={() => exportAs('csv')}>
          Export CSV
        </Button>
        <Button variant="outlined" size="small" onClick={() => exportAs('json')}>
          Export JSON
        </Button>
      </Box>
      {exportError && <Alert severity="error">{exportError}</Alert>}
      {list.isError && <Alert severity="error">{errorLines(list.error).join(' ')}</Alert>}
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '300px 1fr' }, gap: 2 }}>
        <Box>
          {list.data && !list.data.conversations.length && <Typography color="text.secondary">No conversations match.</Typography>}
          {list.data && list.data.conversations.length > 0 && (
            <List dense aria-label="Conversations in range" sx={{ p: 0 }}>
              {list.data.conversations.map((c) => (
                <ListItemButton key={c.id} selected={c.id === chosen} onClick={() => setChosen(c.id)} sx={{ borderRadius: 1 }}>
                  <ListItemText primary={new Date(c.startedAt).toLocaleString()} secondary={`${c.userName} · ${c.messages} messages`} />
                </ListItemButton>
              ))}
            </List>
          )}
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mt: 1 }}>
            <Button size="small" onClick={() => setPage((p) => p - 1)} disabled={page <= 1}>
              Newer
            </Button>
            <Typography variant="caption">Page {page}</Typography>
            <Button size="small" onClick={() => setPage((p) => p + 1)} disabled={!list.data?.hasMore}>
              Older
            </Button>
          </Box>
        </Box>
        <Box sx={{ minWidth: 0 }}>
          {chosen ? (
            <TranscriptView conversationId={chosen} />
          ) : (
            <Typography color="text.secondary">Choose a conversation to read its transcript.</Typography>
          )}
        </Box>
      </Box>
    </Box>
  );
}
