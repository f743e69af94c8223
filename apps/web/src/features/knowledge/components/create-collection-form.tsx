// With no collection selected: 'Create Knowledge Base Collection' with a Collection Name (spec 4 §2).
import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useSnackbar } from 'notistack';
import { useForm } from 'react-hook-form';
import { TOAST_KNOWLEDGE_ERROR_MS, TOAST_SUCCESS_MS } from '@parla/shared/limits';
import { collectionRequest, type CollectionRequest, type KnowledgeCollection } from '@parla/shared/schemas/knowledge';
import { FormTextField } from '../../../components/form/form-text-field';
import { useSaveCollection } from '../api/save-collection';

export function CreateCollectionForm({ onCreated }: { onCreated: (c: KnowledgeCollection) => void }) {
  const { enqueueSnackbar } = useSnackbar();
  const save = useSaveCollection({
    onSuccess: (c) => {
      enqueueSnackbar('The collection has been created successfully!', { variant: 'success', autoHideDuration: TOAST_SUCCESS_MS });
      onCreated(c);
    },
  });
  const { control, handleSubmit } = useForm<CollectionRequest>({
    resolver: zodResolver(collectionRequest),
    defaultValues: { name: '' },
    reValidateMode: 'onChange',
  });
  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Typography variant="h2" component="h1">
        Create Knowledge Base Collection
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        A collection groups texts, web pages and documents. Link it to avatars in their Brain tab.
      </Typography>
      <Box
        component="form"
        noValidate
        aria-label="Create Knowledge Base Collection"
        onSubmit={handleSubmit((v) =>
          save.mutate(v, {
            onError: () => enqueueSnackbar('Error creating item', { variant: 'error', autoHideDuration: TOAST_KNOWLEDGE_ERROR_MS }),
          }),
        )}
        sx={{ maxWidth: 520 }}
      >
        <FormTextField control={control} name="name" label="Collection Name" required autoFocus />
        <Button type="submit" variant="contained" sx={{ mt: 2 }} disabled={save.isPending}>
          Create Collection
        </Button>
      </Box>
    </Paper>
  );
}
