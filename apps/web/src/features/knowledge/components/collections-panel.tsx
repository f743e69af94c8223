// The Knowledge Base side panel (spec 4 §2): the collections and a Create Collection button.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import Alert from '@mui/material/Alert';
import { useCollections } from '../api/get-collections';

export const loadFailed = (name: string) => `Oops! Something went wrong. We couldn't load the ${name}. Please try again later.`;

export function CollectionsPanel({
  selectedId,
  onSelect,
  onCreate,
}: {
  selectedId: string | null;
  onSelect: (id: string) => void;
  onCreate: () => void;
}) {
  const collections = useCollections();
  return (
    <Paper variant="outlined" component="nav" aria-label="Collections" sx={{ p: 2, height: '100%' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <Typography variant="h3" component="h2">
          Collections
        </Typography>
      </Box>
      <Button fullWidth variant="contained" startIcon={<AddIcon />} sx={{ mt: 2 }} onClick={onCreate}>
        Create Collection
      </Button>
      {collections.isPending && <Skeleton variant="rounded" height={120} sx={{ mt: 2 }} />}
      {collections.isError && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {loadFailed('collections')}
        </Alert>
      )}
      {collections.isSuccess && collections.data.length === 0 && (
        <Typography color="text.secondary" sx={{ mt: 2 }}>
          No collections yet.
        </Typography>
      )}
      {collections.isSuccess && collections.data.length > 0 && (
        <List sx={{ mt: 1 }}>
          {collections.data.map((c) => (
            <ListItemButton key={c.id} selected={c.id === selectedId} onClick={() => onSelect(c.id)} sx={{ borderRadius: 1 }}>
              <ListItemText primary={c.name} secondary={`${c.item_count} ${c.item_count === 1 ? 'item' : 'items'}`} />
            </ListItemButton>
          ))}
        </List>
      )}
    </Paper>
  );
}
