// The Encryption Keys side panel (spec 4 §2): the keys with their creation date, the default key
// marked (it cannot be deleted: its delete button is disabled with a tooltip saying why, issue 17),
// delete with the linked-avatars warning, and Create Encryption Key.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import type { EncKeySummary } from '@parla/shared/schemas/encryption-keys';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useDeleteEncKey } from '../api/delete-enc-key';
import { useEncKeys } from '../api/get-enc-keys';

export const DEFAULT_KEY_UNDELETABLE = 'The default key cannot be deleted: avatars without a key of their own use it.';

export const loadFailed = (name: string) => `Oops! Something went wrong. We couldn't load the ${name}. Please try again later.`;

export function KeysPanel({ onCreate }: { onCreate: () => void }) {
  const keys = useEncKeys();
  const del = useDeleteEncKey();
  const [deleting, setDeleting] = useState<EncKeySummary | null>(null);
  return (
    <Paper variant="outlined" component="nav" aria-label="Encryption Keys" sx={{ p: 2 }}>
      <Typography variant="h3" component="h2">
        Encryption Keys
      </Typography>
      <Button fullWidth variant="contained" startIcon={<AddIcon />} sx={{ mt: 2 }} onClick={onCreate}>
        Create Encryption Key
      </Button>
      {keys.isPending && <Skeleton variant="rounded" height={100} sx={{ mt: 2 }} />}
      {keys.isError && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {loadFailed('encryption keys')}
        </Alert>
      )}
      {keys.isSuccess && (
        <List aria-label="Your encryption keys" sx={{ mt: 1 }}>
          {keys.data.map((k) => (
            <ListItem
              key={k.id}
              divider
              secondaryAction={
                <Tooltip title={k.defaultKey ? DEFAULT_KEY_UNDELETABLE : 'Delete'}>
                  {/* the span keeps the tooltip on a disabled button */}
                  <span>
                    <IconButton edge="end" aria-label={`Delete ${k.name}`} disabled={k.defaultKey} onClick={() => setDeleting(k)}>
                      <DeleteOutlineIcon />
                    </IconButton>
                  </span>
                </Tooltip>
              }
            >
              <ListItemText
                primary={
                  <Box component="span" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
                    {k.name}
                    {k.defaultKey && <Chip size="small" label="Default" color="primary" variant="outlined" />}
                  </Box>
                }
                secondary={`Created ${new Date(k.created).toLocaleString()}`}
              />
            </ListItem>
          ))}
        </List>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete encryption key"
        onConfirm={async () => {
          await del.mutateAsync(deleting!.id);
          return 'Deleted Successfully!';
        }}
        errorTitle="Error deleting item."
        onClose={() => setDeleting(null)}
      >
        {deleting
          ? `Are you sure you want to delete "${deleting.name}"? It will be removed from every avatar it is linked to; those avatars will no longer require access tokens signed with it. This action cannot be undone.`
          : ''}
      </ConfirmDialog>
    </Paper>
  );
}
