// The Collection Builder's table (spec 4 §2): Type, Name, Created At, Actions (delete), plus the
// ingestion status of each item with the reason of a failure and a retry; an item opens to its
// extracted text, and a web page re-syncs.
import { useState } from 'react';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import ReplayIcon from '@mui/icons-material/Replay';
import SyncIcon from '@mui/icons-material/Sync';
import VisibilityOutlinedIcon from '@mui/icons-material/VisibilityOutlined';
import { useSnackbar } from 'notistack';
import { TOAST_KNOWLEDGE_ERROR_MS } from '@parla/shared/limits';
import type { KnowledgeItem } from '@parla/shared/schemas/knowledge';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { errorLines } from '../../../lib/api-client';
import { useDeleteItem } from '../api/delete-item';
import { useResyncItem } from '../api/item-detail';
import { useRetryItem } from '../api/retry-item';
import { ItemViewer } from './item-viewer';

const TYPE_LABEL = (i: KnowledgeItem) => (i.knowledge_type.text ? 'Text' : i.knowledge_type.url ? 'Url' : 'File');
const SOURCE = (i: KnowledgeItem) => i.knowledge_type.url?.url ?? i.knowledge_type.file?.file_name ?? null;

const STATUS: Record<KnowledgeItem['status'], { label: string; color: 'default' | 'info' | 'success' | 'error' }> = {
  queued: { label: 'Queued', color: 'default' },
  processing: { label: 'Processing', color: 'info' },
  ready: { label: 'Ready', color: 'success' },
  failed: { label: 'Failed', color: 'error' },
};

export function ItemsTable({ items }: { items: KnowledgeItem[] }) {
  const { enqueueSnackbar } = useSnackbar();
  const del = useDeleteItem();
  const retry = useRetryItem();
  const [deleting, setDeleting] = useState<KnowledgeItem | null>(null);
  const [viewing, setViewing] = useState<KnowledgeItem | null>(null);
  const resync = useResyncItem();
  const onResync = (item: KnowledgeItem) =>
    resync.mutate(item, {
      onSuccess: () => enqueueSnackbar(`"${item.name}" is being fetched again.`, { variant: 'success' }),
      onError: (err) => enqueueSnackbar(errorLines(err).join(' '), { variant: 'error', autoHideDuration: TOAST_KNOWLEDGE_ERROR_MS }),
    });

  return (
    <>
      <TableContainer>
        <Table size="small" aria-label="Knowledge items">
          <TableHead>
            <TableRow>
              <TableCell>Type</TableCell>
              <TableCell>Name</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Created At</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {items.map((item) => (
              <TableRow key={item.id} hover>
                <TableCell>{TYPE_LABEL(item)}</TableCell>
                <TableCell sx={{ maxWidth: 320 }}>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {item.name}
                  </Typography>
                  {SOURCE(item) && (
                    <Typography variant="caption" color="text.secondary" sx={{ display: 'block', wordBreak: 'break-all' }}>
                      {SOURCE(item)}
                    </Typography>
                  )}
                </TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    label={STATUS[item.status].label}
                    color={STATUS[item.status].color}
                    aria-label={`Status of ${item.name}: ${STATUS[item.status].label}`}
                  />
                  {item.status === 'ready' && (
                    <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                      {item.chunk_count} {item.chunk_count === 1 ? 'chunk' : 'chunks'}
                    </Typography>
                  )}
                  {item.status === 'failed' && item.fail_reason && (
                    <Typography variant="caption" color="error" sx={{ display: 'block', maxWidth: 260 }}>
                      {item.fail_reason}
                    </Typography>
                  )}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{new Date(item.created_at).toLocaleString()}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {item.status === 'failed' && (
                    <Tooltip title="Retry">
                      <IconButton
                        aria-label={`Retry ${item.name}`}
                        disabled={retry.isPending}
                        onClick={() =>
                          retry.mutate(item, {
                            onError: (err) =>
                              enqueueSnackbar(errorLines(err).join(' '), { variant: 'error', autoHideDuration: TOAST_KNOWLEDGE_ERROR_MS }),
                          })
                        }
                      >
                        <ReplayIcon />
                      </IconButton>
                    </Tooltip>
                  )}
                  <Tooltip title="View text">
                    <IconButton aria-label={`View ${item.name}`} onClick={() => setViewing(item)}>
                      <VisibilityOutlinedIcon />
                    </IconButton>
                  </Tooltip>
                  {item.knowledge_type.url && (item.status === 'ready' || item.status === 'failed') && (
                    <Tooltip title="Re-sync: fetch the page again">
                      <IconButton aria-label={`Re-sync ${item.name}`} disabled={resync.isPending} onClick={() => onResync(item)}>
                        <SyncIcon />
                      </IconButton>
                    </Tooltip>
                  )}
                  <Tooltip title="Delete">
                    <IconButton aria-label={`Delete ${item.name}`} onClick={() => setDeleting(item)}>
                      <DeleteOutlineIcon />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <ItemViewer
        item={viewing}
        onClose={() => setViewing(null)}
        onResync={(item) => {
          onResync(item);
          setViewing(null);
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete knowledge"
        onConfirm={async () => {
          await del.mutateAsync(deleting!);
          return `The "${deleting!.name}" knowledge has been deleted successfully!`;
        }}
        errorTitle={deleting ? `Error! Unable to delete "${deleting.name}" Please try again.` : undefined}
        onClose={() => setDeleting(null)}
      >
        {deleting ? `Are you sure you want to delete "${deleting.name}"? This action cannot be undone.` : ''}
      </ConfirmDialog>
    </>
  );
}
