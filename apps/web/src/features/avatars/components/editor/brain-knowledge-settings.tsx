// Brain → KNOWLEDGE BASE, retrieval settings (as Dify offers them): how many passages an answer
// may draw on (top-k, 1–10) and the relevance threshold below which a passage never reaches the
// model; with a test of the linked collections that shows what these settings send.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useFormContext, useWatch } from 'react-hook-form';
import { knowledgeSettings, type CustomData } from '@parla/shared/schemas/avatar';
import { AVATAR_TOP_K_MAX } from '@parla/shared/schemas/knowledge';
import { errorLines } from '../../../../lib/api-client';
import { useSearchKnowledge } from '../../api/search-knowledge';
import type { EditorValues } from '../../lib/editor-values';

const PREVIEW_CHARS = 240;

export function KnowledgeSettings() {
  const { setValue, getValues } = useFormContext<EditorValues>();
  const custom = useWatch<EditorValues, 'customData'>({ name: 'customData' }) as CustomData | undefined;
  const { topK, threshold } = knowledgeSettings(custom);
  const ids = custom?.collection_ids ?? [];
  const search = useSearchKnowledge();
  const [query, setQuery] = useState('');
  const set = (patch: Partial<CustomData>) =>
    setValue('customData', { ...(getValues('customData') ?? {}), ...patch } as never, { shouldDirty: true });
  const run = () => {
    if (query.trim() && ids.length) search.mutate({ collection_ids: ids, query: query.trim(), top_k: topK, score_threshold: threshold });
  };

  return (
    <Box sx={{ display: 'grid', gap: 1.5, mt: 1 }}>
      <Typography variant="subtitle1" component="h3">
        Retrieval settings
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 3 }}>
        <Box>
          <Typography id="kb-top-k" gutterBottom>
            Top K: {topK} {topK === 1 ? 'passage' : 'passages'} at most
          </Typography>
          <Slider
            aria-labelledby="kb-top-k"
            min={1}
            max={AVATAR_TOP_K_MAX}
            step={1}
            marks
            value={topK}
            valueLabelDisplay="auto"
            onChange={(_e, v) => set({ knowledge_top_k: v as number })}
          />
        </Box>
        <Box>
          <Typography id="kb-threshold" gutterBottom>
            Score threshold: {threshold.toFixed(2)}
          </Typography>
          <Slider
            aria-labelledby="kb-threshold"
            min={0}
            max={1}
            step={0.05}
            value={threshold}
            valueLabelDisplay="auto"
            onChange={(_e, v) => set({ knowledge_threshold: v as number })}
          />
        </Box>
      </Box>
      <Typography variant="body2" color="text.secondary">
        A passage reaches the model only when its score is at least the threshold (proportionally lower for questions of more than two
        words) and 40 % of the best passage&apos;s score. When none does, the avatar is told that its knowledge base has nothing on the
        question, so it can say it does not know.
      </Typography>
      <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label="Test retrieval">
        <Box
          component="form"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            run();
          }}
          sx={{ display: 'flex', gap: 1, alignItems: 'center' }}
        >
          <TextField
            label="Test a question"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            margin="none"
            size="small"
            sx={{ flex: 1 }}
          />
          <Button type="submit" variant="outlined" disabled={!query.trim() || !ids.length || search.isPending}>
            Test retrieval
          </Button>
        </Box>
        {!ids.length && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            Link a collection to test what the avatar would be given.
          </Typography>
        )}
        {search.isError && (
          <Alert severity="error" sx={{ mt: 1.5 }}>
            {errorLines(search.error).join(' ')}
          </Alert>
        )}
        {search.isSuccess && search.data.length === 0 && (
          <Alert severity="info" sx={{ mt: 1.5 }}>
            Nothing clears the threshold: the avatar is told its knowledge base has no relevant information.
          </Alert>
        )}
        {search.isSuccess && search.data.length > 0 && (
          <Box component="ol" aria-label="Passages sent to the model" sx={{ listStyle: 'none', p: 0, m: 0, mt: 1.5 }}>
            {search.data.map((hit, i) => (
              <Box component="li" key={`${hit.item_id}-${i}`} aria-label={`Passage ${i + 1}: ${hit.item_name}`} sx={{ mb: 1 }}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <Chip size="small" color="primary" label={`Score ${hit.score.toFixed(2)}`} />
                  <Typography variant="subtitle2">{hit.item_name}</Typography>
                </Stack>
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                  {hit.text.length > PREVIEW_CHARS ? `${hit.text.slice(0, PREVIEW_CHARS)}…` : hit.text}
                </Typography>
              </Box>
            ))}
          </Box>
        )}
      </Paper>
    </Box>
  );
}
