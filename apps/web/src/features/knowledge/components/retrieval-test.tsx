// Retrieval testing (beyond the spec, as the best knowledge-base products offer): ask a question
// and see the chunks an avatar would be given, best first, with their score, source item and
// how each was found. The last queries are kept for this visit.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import SearchIcon from '@mui/icons-material/Search';
import { SEARCH_TOP_K_DEFAULT } from '@parla/shared/schemas/knowledge';
import { errorLines } from '../../../lib/api-client';
import { useSearchKnowledge } from '../api/search';

const HISTORY = 5;
const PREVIEW_CHARS = 420;

export function RetrievalTest({ collectionId }: { collectionId: string }) {
  const search = useSearchKnowledge();
  const [query, setQuery] = useState('');
  const [history, setHistory] = useState<string[]>([]);
  const [expanded, setExpanded] = useState<Set<number>>(new Set());

  const run = (q: string) => {
    const text = q.trim();
    if (!text) return;
    setQuery(text);
    setExpanded(new Set());
    setHistory((h) => [text, ...h.filter((x) => x !== text)].slice(0, HISTORY));
    search.mutate({ collection_ids: [collectionId], query: text, top_k: SEARCH_TOP_K_DEFAULT });
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby="retrieval-test-title" sx={{ p: 3, mt: 3 }}>
      <Typography id="retrieval-test-title" variant="h3" component="h2">
        Retrieval testing
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        Ask what a visitor might ask: these are the passages an avatar would draw on, best first.
      </Typography>
      <Box
        component="form"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          run(query);
        }}
        sx={{ display: 'flex', gap: 1, alignItems: 'center', mt: 1 }}
      >
        <TextField label="Test query" value={query} onChange={(e) => setQuery(e.target.value)} margin="dense" />
        <Button
          type="submit"
          variant="contained"
          startIcon={search.isPending ? <CircularProgress size={16} color="inherit" /> : <SearchIcon />}
          disabled={!query.trim() || search.isPending}
          sx={{ height: 40, mt: 0.5 }}
        >
          Search
        </Button>
      </Box>
      {history.length > 1 && (
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', mt: 1 }} aria-label="Recent queries">
          {history.map((h) => (
            <Chip key={h} label={h} size="small" variant="outlined" onClick={() => run(h)} />
          ))}
        </Stack>
      )}
      {search.isError && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {errorLines(search.error).join(' ')}
        </Alert>
      )}
      {search.isSuccess && search.data.length === 0 && (
        <Alert severity="info" sx={{ mt: 2 }}>
          No passage is relevant enough to reach the model: an avatar would be told its knowledge base has nothing on this. Items still
          processing are not searchable yet.
        </Alert>
      )}
      {search.isSuccess && search.data.length > 0 && (
        <Box component="ol" aria-label="Search results" sx={{ listStyle: 'none', p: 0, m: 0, mt: 2 }}>
          {search.data.map((hit, i) => {
            const long = hit.text.length > PREVIEW_CHARS;
            const open = expanded.has(i);
            return (
              <Paper
                component="li"
                variant="outlined"
                key={`${hit.item_id}-${i}`}
                sx={{ p: 1.5, mb: 1 }}
                aria-label={`Result ${i + 1}: ${hit.item_name}`}
              >
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                  <Typography variant="subtitle2">#{i + 1}</Typography>
                  <Chip size="small" color="primary" label={`Score ${hit.score.toFixed(3)}`} />
                  <Chip size="small" label={hit.item_name} />
                  <Chip
                    size="small"
                    variant="outlined"
                    label={hit.match === 'fulltext' ? 'Full-text' : hit.match === 'vector' ? 'Vector' : 'Hybrid'}
                  />
                </Stack>
                <Typography variant="body2" sx={{ mt: 1, whiteSpace: 'pre-wrap' }}>
                  {long && !open ? `${hit.text.slice(0, PREVIEW_CHARS)}…` : hit.text}
                </Typography>
                {long && (
                  <Button size="small" onClick={() => setExpanded((s) => new Set(open ? [...s].filter((x) => x !== i) : [...s, i]))}>
                    {open ? 'Show less' : 'Show all'}
                  </Button>
                )}
              </Paper>
            );
          })}
        </Box>
      )}
    </Paper>
  );
}
