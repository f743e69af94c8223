// An item opened: what was extracted from it, as the chunks search ranks (issue 15), with
// Re-sync for web pages.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { KnowledgeItem } from '@parla/shared/schemas/knowledge';
import { errorLines } from '../../../lib/api-client';
import { useItemDetail } from '../api/item-detail';

export function ItemViewer({
  item,
  onClose,
  onResync,
}: {
  item: KnowledgeItem | null;
  onClose: () => void;
  onResync: (item: KnowledgeItem) => void;
}) {
  const detail = useItemDetail(item?.id ?? null);
  const url = item?.knowledge_type.url?.url;
  return (
    <Dialog open={item !== null} onClose={onClose} fullWidth maxWidth="md" aria-labelledby="item-viewer-title">
      <DialogTitle id="item-viewer-title">{item?.name}</DialogTitle>
      <DialogContent dividers>
        {url && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1, wordBreak: 'break-all' }}>
            {url}
          </Typography>
        )}
        {detail.isPending && <Skeleton variant="rounded" height={120} />}
        {detail.isError && <Alert severity="error">{errorLines(detail.error).join(' ')}</Alert>}
        {detail.isSuccess && detail.data.chunks.length === 0 && (
          <Alert severity="info">
            {item?.status === 'failed' ? (item.fail_reason ?? 'Processing failed.') : 'No text yet: the item is still being processed.'}
          </Alert>
        )}
        {detail.isSuccess && detail.data.chunks.length > 0 && (
          <>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              Extracted text in {detail.data.chunks.length} {detail.data.chunks.length === 1 ? 'chunk' : 'chunks'}, as search ranks it.
            </Typography>
            {detail.data.chunks.map((c) => (
              <Paper key={c.ord} variant="outlined" component="section" aria-label={`Chunk ${c.ord + 1}`} sx={{ p: 1.5, mb: 1 }}>
                <Typography variant="caption" color="text.secondary">
                  Chunk {c.ord + 1}
                </Typography>
                <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
                  {c.text}
                </Typography>
              </Paper>
            ))}
          </>
        )}
      </DialogContent>
      <DialogActions>
        {url && item && (item.status === 'ready' || item.status === 'failed') && <Button onClick={() => onResync(item)}>Re-sync</Button>}
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
