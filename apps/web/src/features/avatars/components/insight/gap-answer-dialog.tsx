// Writes the answer a knowledge gap is missing: a text item named after the question (prefilled,
// editable) in one of the avatar's collections; the next visitor's search finds it. The form is
// the server's schema (gapAnswerRequest), so the messages are the same on both sides.
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { gapAnswerRequest, type GapAnswerRequest, type KnowledgeGap } from '@parla/shared/schemas/insight';
import { errorLines } from '../../../../lib/api-client';
import { FormSelect } from '../../../../components/form/form-select';
import { FormTextField } from '../../../../components/form/form-text-field';
import { useAnswerGap } from '../../api/answer-gap';

export const NO_LINKED_COLLECTION = 'This avatar has no knowledge collection: link one in its Brain tab (Knowledge base) first.';

export function GapAnswerDialog({
  avatarId,
  gap,
  collections,
  onClose,
}: {
  avatarId: string;
  gap: KnowledgeGap;
  collections: { id: string; name: string }[];
  onClose(): void;
}) {
  const form = useForm<GapAnswerRequest>({
    resolver: zodResolver(gapAnswerRequest),
    reValidateMode: 'onChange',
    defaultValues: { collectionId: collections[0]?.id ?? '', question: gap.question.slice(0, 200), answer: '' },
  });
  const save = useAnswerGap(avatarId, { onSuccess: onClose });
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="gap-answer-title">
      <DialogTitle id="gap-answer-title">Write the answer</DialogTitle>
      <form onSubmit={form.handleSubmit((body) => save.mutate({ gapId: gap.id, body }))} noValidate>
        <DialogContent>
          <Stack spacing={2}>
            {!collections.length && <Alert severity="warning">{NO_LINKED_COLLECTION}</Alert>}
            <FormSelect
              control={form.control}
              name="collectionId"
              label="Collection"
              options={collections.map((c) => ({ value: c.id, label: c.name }))}
            />
            <FormTextField control={form.control} name="question" label="Question" fullWidth />
            <FormTextField control={form.control} name="answer" label="Answer" fullWidth multiline minRows={4} autoFocus />
            {save.isError && <Alert severity="error">{errorLines(save.error).join(' ')}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={save.isPending || !collections.length}>
            Save answer
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
