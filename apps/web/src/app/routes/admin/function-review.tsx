// Function Review (administrators; beyond the spec, which leaves approval "elsewhere"): the
// functions awaiting review first, each with its code, a decision with a reason, and its audit trail.
import { useState } from 'react';
import type { ReviewFunctionRecord } from '@parla/shared/schemas/functions';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useReviewFunctions } from '../../../features/function-review/api/get-review-functions';
import { ReviewDetail } from '../../../features/function-review/components/review-detail';
import { ReviewList } from '../../../features/function-review/components/review-list';

export default function FunctionReviewRoute() {
  const functions = useReviewFunctions();
  // The chosen function stays open after a decision even when the list's first page (Pending
  // first) no longer holds it: the page's copy when there is one, else the last one seen.
  const [chosen, setChosen] = useState<ReviewFunctionRecord | null>(null);
  const selected = functions.data?.find((f) => f.id === chosen?.id) ?? chosen;
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '340px 1fr' }, gap: 3, p: { xs: 2, sm: 3 }, alignItems: 'start' }}>
      <ReviewList selectedId={selected?.id ?? null} onSelect={setChosen} />
      <Box sx={{ minWidth: 0 }}>
        {selected ? (
          <ReviewDetail key={`${selected.id}:${selected.codeHash}`} fn={selected} onDecided={setChosen} />
        ) : (
          <Paper variant="outlined" sx={{ p: 3 }}>
            <Typography variant="h2" component="h1">
              Function Review
            </Typography>
            <Typography color="text.secondary" sx={{ mt: 1 }}>
              Choose a function to read its code. Approve it only if it is safe to run for the customer's avatars; a change of its code
              sends it back here.
            </Typography>
          </Paper>
        )}
      </Box>
    </Box>
  );
}
