// The Functions side panel (spec 4 §2): the customer's own functions (not templates), each with
// Create Date, Last Update Date, Last Admin Update Date ('---' when none) and its approval chip.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import type { FunctionRecord } from '@parla/shared/schemas/functions';
import { LoadMore } from '../../../components/load-more';
import { useFunctions } from '../api/get-functions';
import { ApprovalChip } from './approval-chip';

export const loadFailed = (name: string) => `Oops! Something went wrong. We couldn't load the ${name}. Please try again later.`;
const date = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '---');

function Line({ label, value }: { label: string; value: string }) {
  return (
    <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
      {label}: {value}
    </Typography>
  );
}

export function FunctionsPanel({
  selectedId,
  onSelect,
  onNew,
}: {
  selectedId: string | null;
  onSelect: (f: FunctionRecord) => void;
  onNew: () => void;
}) {
  const functions = useFunctions();
  const own = functions.data?.filter((f) => !f.template) ?? [];
  return (
    <Paper variant="outlined" component="nav" aria-label="Functions" sx={{ p: 2 }}>
      <Typography variant="h3" component="h2">
        Functions
      </Typography>
      <Button fullWidth variant="contained" startIcon={<AddIcon />} sx={{ mt: 2 }} onClick={onNew}>
        New Function
      </Button>
      {functions.isPending && <Skeleton variant="rounded" height={120} sx={{ mt: 2 }} />}
      {functions.isError && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {loadFailed('functions')}
        </Alert>
      )}
      {functions.isSuccess && own.length === 0 && (
        <Typography color="text.secondary" sx={{ mt: 2 }}>
          No functions yet.
        </Typography>
      )}
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, mt: 2 }}>
        {own.map((f) => (
          <Card key={f.id} variant="outlined" sx={{ borderColor: f.id === selectedId ? 'primary.main' : undefined }}>
            <CardActionArea
              onClick={() => onSelect(f)}
              aria-label={`${f.name}, ${f.approvalStatus}`}
              aria-current={f.id === selectedId ? 'true' : undefined}
            >
              <CardContent sx={{ py: 1.5 }}>
                <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 1 }}>
                  <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{f.name}</Typography>
                  <ApprovalChip status={f.approvalStatus} />
                </Box>
                <Line label="Create Date" value={date(f.createDate)} />
                <Line label="Last Update Date" value={date(f.lastUpdateDate)} />
                <Line label="Last Admin Update Date" value={date(f.lastAdminUpdateDate)} />
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Box>
      <LoadMore
        shown={own.length}
        noun="functions"
        hasMore={functions.hasNextPage}
        loading={functions.isFetchingNextPage}
        onMore={() => void functions.fetchNextPage()}
      />
    </Paper>
  );
}
