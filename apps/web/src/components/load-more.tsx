// Under a paged list (decision 221): how many rows are shown and, while the server has more,
// a button that fetches the next page.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';

export function LoadMore({
  shown,
  noun,
  hasMore,
  loading,
  onMore,
}: {
  shown: number;
  noun: string;
  hasMore: boolean;
  loading: boolean;
  onMore(): void;
}) {
  if (!hasMore) return null;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, mt: 1.5, flexWrap: 'wrap' }}>
      <Typography variant="body2" color="text.secondary">{`Showing ${shown} ${noun}`}</Typography>
      <Button variant="outlined" size="small" onClick={onMore} disabled={loading}>
        {loading ? 'Loading…' : `Load more ${noun}`}
      </Button>
    </Box>
  );
}
