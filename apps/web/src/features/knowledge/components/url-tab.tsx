// Add Knowledge › Url: rows of name and URL; one row to start with, prefilled with {host} (spec 4
// §5), read as the customer's own website when one of their avatars lists it, else empty with an
// example placeholder: never the portal's own address, which the server refuses as private
// (issue 17). A row can be removed only while there are several.
import { useEffect } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import { useFieldArray, useForm } from 'react-hook-form';
import { urlItemsForm, type UrlItemsForm } from '@parla/shared/schemas/knowledge';
import { FormTextField } from '../../../components/form/form-text-field';
import { useOwnWebsite } from '../api/get-own-website';
import { submitBatch, useReportDirty, type SubmitContext } from './submit-knowledge';

export const URL_PLACEHOLDER = 'https://example.com/page';
const emptyRow = (url = '') => ({ name: '', url });

export function UrlTab({ ctx }: { ctx: SubmitContext }) {
  const site = useOwnWebsite();
  const {
    control,
    handleSubmit,
    getFieldState,
    getValues,
    resetField,
    formState: { isDirty },
  } = useForm<UrlItemsForm>({
    resolver: zodResolver(urlItemsForm),
    defaultValues: { rows: [emptyRow(site ?? '')] },
    reValidateMode: 'onChange',
  });
  const rows = useFieldArray({ control, name: 'rows' });
  useReportDirty(ctx, 'Url', isDirty);
  // The site may arrive after the form: fill the first row unless it was typed in already.
  useEffect(() => {
    if (site && !getFieldState('rows.0.url').isDirty && getValues('rows.0.url') === '') resetField('rows.0.url', { defaultValue: site });
  }, [site, getFieldState, getValues, resetField]);
  return (
    <Box
      component="form"
      noValidate
      aria-label="Add URL knowledge"
      onSubmit={handleSubmit((v) =>
        submitBatch(
          ctx,
          v.rows.map((r) => ({ name: r.name, knowledge_type: { url: { url: r.url } } })),
        ),
      )}
      sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}
    >
      <Box sx={{ flex: 1, minHeight: 0, overflowY: 'auto', pr: 1 }}>
        {rows.fields.map((field, index) => (
          // A Box, not a Stack: Stack resets its children's margins, and the fields need theirs.
          <Box
            key={field.id}
            sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: 1, alignItems: { sm: 'flex-start' } }}
          >
            <FormTextField control={control} name={`rows.${index}.name`} label={`Name ${index + 1}`} required sx={{ flex: 1 }} />
            <FormTextField
              control={control}
              name={`rows.${index}.url`}
              label={`URL ${index + 1}`}
              required
              placeholder={URL_PLACEHOLDER}
              slotProps={{ inputLabel: { shrink: true } }}
              sx={{ flex: 2 }}
            />
            {rows.fields.length > 1 && (
              <IconButton
                aria-label={`Remove URL ${index + 1}`}
                onClick={() => rows.remove(index)}
                sx={{ mt: { sm: 3 }, alignSelf: { xs: 'flex-end', sm: 'auto' } }}
              >
                <DeleteOutlineIcon />
              </IconButton>
            )}
          </Box>
        ))}
        <Button startIcon={<AddIcon />} onClick={() => rows.append(emptyRow())} sx={{ mt: 1 }}>
          Add URL
        </Button>
      </Box>
      <Box sx={{ pt: 2, display: 'flex', justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained">
          Submit
        </Button>
      </Box>
    </Box>
  );
}
