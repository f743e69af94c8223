// The Collection Builder (spec 4 §2): the collection's name (and language), its items table with
// Add Knowledge (or an empty-state prompt), delete with the linked-avatars warning, and the
// retrieval testing box.
import { useEffect, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import LibraryBooksOutlinedIcon from '@mui/icons-material/LibraryBooksOutlined';
import { useSnackbar } from 'notistack';
import { useForm } from 'react-hook-form';
import { TOAST_KNOWLEDGE_ERROR_MS, TOAST_SUCCESS_MS } from '@parla/shared/limits';
import { collectionRequest, KNOWLEDGE_LANGUAGES, type CollectionRequest, type KnowledgeCollection } from '@parla/shared/schemas/knowledge';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { LoadMore } from '../../../components/load-more';
import { FormTextField } from '../../../components/form/form-text-field';
import { useDeleteCollection } from '../api/delete-collection';
import { useItems } from '../api/get-items';
import { useSaveCollection } from '../api/save-collection';
import { AddKnowledgeDialog } from './add-knowledge-dialog';
import { loadFailed } from './collections-panel';
import { collectionModeLine } from './collection-mode';
import { ItemsTable } from './items-table';
import { RetrievalTest } from './retrieval-test';

export function CollectionBuilder({ collection, onDeleted }: { collection: KnowledgeCollection; onDeleted: () => void }) {
  const { enqueueSnackbar } = useSnackbar();
  const items = useItems(collection.id);
  const save = useSaveCollection();
  const del = useDeleteCollection();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const { control, handleSubmit, reset, formState } = useForm<CollectionRequest>({
    resolver: zodResolver(collectionRequest),
    defaultValues: { name: collection.name, language: collection.language ?? '' },
    reValidateMode: 'onChange',
  });
  useEffect(
    () => reset({ name: collection.name, language: collection.language ?? '' }),
    [collection.id, collection.name, collection.language, reset],
  );

  const onSave = handleSubmit((v) =>
    save.mutate(
      { id: collection.id, name: v.name, language: v.language || null },
      {
        onSuccess: () =>
          enqueueSnackbar('The collection has been updated successfully!', { variant: 'success', autoHideDuration: TOAST_SUCCESS_MS }),
        onError: () => enqueueSnackbar('Error updating item', { variant: 'error', autoHideDuration: TOAST_KNOWLEDGE_ERROR_MS }),
      },
    ),
  );

  return (
    <Box>
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography variant="h2" component="h1">
          Collection Builder
        </Typography>
        <Box component="form" noValidate aria-label="Collection" onSubmit={onSave}>
          <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: 2, alignItems: { sm: 'flex-start' } }}>
            <FormTextField control={control} name="name" label="Collection Name" required sx={{ flex: 2 }} />
            <FormTextField
              control={control}
              name="language"
              label="Document language"
              select
              sx={{ flex: 1 }}
              helperText={collectionModeLine(collection)}
              slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
            >
              {KNOWLEDGE_LANGUAGES.map((l) => (
                <MenuItem key={l.code} value={l.code}>
                  {l.name}
                </MenuItem>
              ))}
            </FormTextField>
          </Box>
          <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
            <Button type="submit" variant="contained" disabled={!formState.isDirty || save.isPending}>
              Update Collection
            </Button>
            <Button color="error" onClick={() => setDeleting(true)}>
              Delete Collection
            </Button>
          </Stack>
        </Box>
      </Paper>

      <Paper variant="outlined" sx={{ p: 3, mt: 3 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 1 }}>
          <Typography variant="h3" component="h2">
            Knowledge
          </Typography>
          {items.isSuccess && items.data.length > 0 && (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAdding(true)}>
              Add Knowledge
            </Button>
          )}
        </Box>
        {items.isPending && <Skeleton variant="rounded" height={160} />}
        {items.isError && <Alert severity="error">{loadFailed('knowledge items')}</Alert>}
        {items.isSuccess && items.data.length === 0 && (
          <Box sx={{ textAlign: 'center', py: 5 }}>
            <LibraryBooksOutlinedIcon color="action" sx={{ fontSize: 48 }} />
            <Typography variant="h3" component="p" sx={{ mt: 1 }}>
              This collection is empty
            </Typography>
            <Typography color="text.secondary" sx={{ mt: 0.5 }}>
              Add text, web pages, a whole website or documents for your avatars to draw on.
            </Typography>
            <Button variant="contained" startIcon={<AddIcon />} sx={{ mt: 2 }} onClick={() => setAdding(true)}>
              Add Knowledge
            </Button>
          </Box>
        )}
        {items.isSuccess && items.data.length > 0 && <ItemsTable items={items.data} />}
        <LoadMore
          shown={items.data?.length ?? 0}
          noun="items"
          hasMore={items.hasNextPage}
          loading={items.isFetchingNextPage}
          onMore={() => void items.fetchNextPage()}
        />
      </Paper>

      <RetrievalTest collectionId={collection.id} />

      {adding && <AddKnowledgeDialog collectionId={collection.id} open={adding} onClose={() => setAdding(false)} />}
      <ConfirmDialog
        open={deleting}
        title="Delete collection"
        onConfirm={async () => {
          await del.mutateAsync(collection.id);
          return 'The collection has been deleted successfully!';
        }}
        errorTitle="Error deleting item."
        onClose={(outcome) => {
          setDeleting(false);
          if (outcome === 'done') onDeleted();
        }}
      >
        {`Are you sure you want to delete "${collection.name}"? It will be removed from every avatar it is linked to, with all its knowledge. This action cannot be undone.`}
      </ConfirmDialog>
    </Box>
  );
}
