// Add Knowledge › Text: a name and the text itself (spec 4 §5).
import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useForm } from 'react-hook-form';
import { textItemForm, type TextItemForm } from '@parla/shared/schemas/knowledge';
import { FormTextField } from '../../../components/form/form-text-field';
import { submitOne, useReportDirty, type SubmitContext } from './submit-knowledge';

export function TextTab({ ctx }: { ctx: SubmitContext }) {
  const {
    control,
    handleSubmit,
    formState: { isDirty },
  } = useForm<TextItemForm>({
    resolver: zodResolver(textItemForm),
    defaultValues: { name: '', content: '' },
    reValidateMode: 'onChange',
  });
  useReportDirty(ctx, 'Text', isDirty);
  return (
    <Box
      component="form"
      noValidate
      aria-label="Add text knowledge"
      onSubmit={handleSubmit((v) => submitOne(ctx, { name: v.name, knowledge_type: { text: { content: v.content } } }))}
      sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}
    >
      <FormTextField control={control} name="name" label="Name" required />
      <FormTextField control={control} name="content" label="Content" required multiline minRows={12} maxRows={16} />
      <Box sx={{ mt: 'auto', pt: 2, display: 'flex', justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained">
          Submit
        </Button>
      </Box>
    </Box>
  );
}
