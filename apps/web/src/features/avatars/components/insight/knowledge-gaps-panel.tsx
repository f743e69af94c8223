// The avatar's knowledge gaps: the questions it could not answer, grouped by meaning, most asked
// first, each with its latest questions, how often and when; 'Write the answer' adds a knowledge
// item prefilled with the question (the next visitor is answered from it), 'Dismiss' hides one.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { GapStatus, KnowledgeGap } from '@parla/shared/schemas/insight';
import { errorLines } from '../../../../lib/api-client';
import { useDismissGap } from '../../api/dismiss-gap';
import { useKnowledgeGaps } from '../../api/get-knowledge-gaps';
import { GapAnswerDialog } from './gap-answer-dialog';

const PAGE_SIZE = 10;
const REASONS = { no_knowledge: 'nothing in the knowledge', did_not_know: 'said it did not know', asked_again: 'asked again' } as const;
const when = (iso: string) => new Date(iso).toLocaleString();

export function KnowledgeGapsPanel({ avatarId }: { avatarId: string }) {
  const [status, setStatus] = useState<GapStatus>('open');
  const [page, setPage] = useState(1);
  const [answering, setAnswering] = useState<KnowledgeGap | null>(null);
  const gaps = useKnowledgeGaps(avatarId, status, page, PAGE_SIZE);
  const dismiss = useDismissGap(avatarId);
  const pages = gaps.data ? Math.max(1, Math.ceil(gaps.data.total / PAGE_SIZE)) : 1;
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={status}
          onChange={(_, v: GapStatus | null) => v && (setStatus(v), setPage(1))}
          aria-label="Which gaps"
        >
          <ToggleButton value="open">Open</ToggleButton>
          <ToggleButton value="resolved">Resolved</ToggleButton>
          <ToggleButton value="dismissed">Dismissed</ToggleButton>
        </ToggleButtonGroup>
        <Button size="small" onClick={() => void gaps.refetch()} disabled={gaps.isFetching}>
          Refresh
        </Button>
        {gaps.isFetching && <CircularProgress size={20} aria-label="Loading knowledge gaps" />}
      </Box>
      {gaps.isError && <Alert severity="error">{errorLines(gaps.error).join(' ')}</Alert>}
      {dismiss.isError && <Alert severity="error">{errorLines(dismiss.error).join(' ')}</Alert>}
      {gaps.data && !gaps.data.gaps.length && (
        <Typography color="text.secondary">
          {status === 'open' ? 'No knowledge gaps: every question was answered.' : `No ${status} gaps.`}
        </Typography>
      )}
      <Box role="list" aria-label="Knowledge gaps" sx={{ display: 'grid', gap: 1.5 }}>
        {gaps.data?.gaps.map((g) => (
          <Card key={g.id} role="listitem" aria-label={g.question} variant="outlined">
            <CardContent sx={{ pb: 0 }}>
              <Typography variant="subtitle1">{g.question}</Typography>
              <Typography variant="body2" color="text.secondary">
                Asked {g.asked} {g.asked === 1 ? 'time' : 'times'} · first {when(g.firstAt)} · last {when(g.lastAt)}
                {g.resolvedBy === 'written' ? ' · answer written' : g.resolvedBy === 'answered' ? ' · now answered from knowledge' : ''}
              </Typography>
              <Box component="ul" aria-label="Questions asked" sx={{ my: 1, pl: 2.5 }}>
                {g.examples.map((e) => (
                  <li key={`${e.at}-${e.text}`}>
                    <Typography variant="body2">
                      “{e.text}”{' '}
                      <Typography component="span" variant="caption" color="text.secondary">
                        ({REASONS[e.reason]}, {when(e.at)})
                      </Typography>
                    </Typography>
                  </li>
                ))}
              </Box>
            </CardContent>
            {status !== 'resolved' && (
              <CardActions>
                <Button size="small" variant="contained" onClick={() => setAnswering(g)}>
                  Write the answer
                </Button>
                {status === 'open' && (
                  <Button size="small" onClick={() => dismiss.mutate(g.id)} disabled={dismiss.isPending}>
                    Dismiss
                  </Button>
                )}
              </CardActions>
            )}
          </Card>
        ))}
      </Box>
      {pages > 1 && (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          <Button size="small" onClick={() => setPage((p) => p - 1)} disabled={page <= 1}>
            Previous
          </Button>
          <Typography variant="caption">
            {page} / {pages}
          </Typography>
          <Button size="small" onClick={() => setPage((p) => p + 1)} disabled={page >= pages}>
            Next
          </Button>
        </Box>
      )}
      {answering && gaps.data && (
        <GapAnswerDialog avatarId={avatarId} gap={answering} collections={gaps.data.collections} onClose={() => setAnswering(null)} />
      )}
    </Box>
  );
}
