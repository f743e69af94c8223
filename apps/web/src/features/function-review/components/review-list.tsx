// Function Review: every customer's functions, those awaiting review first.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { ReviewFunctionRecord } from '@parla/shared/schemas/functions';
import { LoadMore } from '../../../components/load-more';
import { useReviewFunctions } from '../api/get-review-functions';

const COLOR = { Pending: 'warning', Approved: 'primary', Rejected: 'error' } as const;

export function ReviewList({ selectedId, onSelect }: { selectedId: string | null; onSelect: (f: ReviewFunctionRecord) => void }) {
  const functions = useReviewFunctions();
  const pending = functions.data?.filter((f) => f.approvalStatus === 'Pending').length ?? 0;
  return (
    <Paper variant="outlined" component="nav" aria-label="Functions to review" sx={{ p: 2 }}>
      <Typography variant="h3" component="h2">
        Functions
      </Typography>
      {functions.isSuccess && (
        <Typography variant="body2" color="text.secondary">
          {/* Pending come first: while every row in hand is Pending and more follow, there are more. */}
          {pending === functions.data.length && functions.hasNextPage ? `${pending}+` : pending} awaiting review
        </Typography>
      )}
      {functions.isPending && <Skeleton variant="rounded" height={120} sx={{ mt: 2 }} />}
      {functions.isError && (
        <Alert severity="error" sx={{ mt: 2 }}>
          Oops! Something went wrong. We couldn't load the functions. Please try again later.
        </Alert>
      )}
      {functions.isSuccess && functions.data.length === 0 && (
        <Typography color="text.secondary" sx={{ mt: 2 }}>
          No customer has written a function yet.
        </Typography>
      )}
      <List sx={{ mt: 1 }}>
        {functions.data?.map((f) => (
          <ListItemButton key={f.id} selected={f.id === selectedId} onClick={() => onSelect(f)} sx={{ borderRadius: 1 }}>
            <ListItemText
              primary={
                <Box component="span" sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
                  <span>{f.name}</span>
                  <Chip size="small" label={f.approvalStatus} color={COLOR[f.approvalStatus]} />
                </Box>
              }
              secondary={`${f.ownerName || f.ownerEmail} · updated ${new Date(f.lastUpdateDate).toLocaleString()}`}
            />
          </ListItemButton>
        ))}
      </List>
      <LoadMore
        shown={functions.data?.length ?? 0}
        noun="functions"
        hasMore={functions.hasNextPage}
        loading={functions.isFetchingNextPage}
        onMore={() => void functions.fetchNextPage()}
      />
    </Paper>
  );
}
