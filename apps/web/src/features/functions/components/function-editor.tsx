// The Code Editor (spec 4 §2): File Name and Code (CodeMirror with Python highlighting, 20 rows).
// Saving a new function creates it, saving an existing one updates it. Success resets the
// selection (spec 4 §4); an error keeps the editor and its text, so no typed code is lost
// (issue 17, docs/decisions/504-unsaved-work-and-failed-saves.md). Deleting resets at once.
// Editing an approved function's code sends it back to review. Try it runs the code as typed
// before it is submitted; a saved function shows its live calls (decision 415).
import { useEffect, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { python } from '@codemirror/lang-python';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CodeMirror, { EditorView } from '@uiw/react-codemirror';
import { useSnackbar } from 'notistack';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { TOAST_KNOWLEDGE_ERROR_MS, TOAST_SUCCESS_MS } from '@parla/shared/limits';
import { FUNCTION_CODE_ROWS, functionForm, type FunctionForm, type FunctionRecord } from '@parla/shared/schemas/functions';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormTextField } from '../../../components/form/form-text-field';
import { useSaveFunction } from '../api/save-functions';
import { ApprovalChip } from './approval-chip';
import { FunctionCalls } from './function-calls';
import { TryFunction } from './try-function';

/** 20 rows of the editor's 1.4em lines at 14 px. */
const CODE_HEIGHT = `${Math.round(FUNCTION_CODE_ROWS * 14 * 1.4) + 8}px`;
const codeLabel = EditorView.contentAttributes.of({ 'aria-label': 'Code', 'aria-multiline': 'true' });

export function FunctionEditor({
  existing,
  initial,
  onChooseAnother,
  onDone,
  onDirtyChange,
}: {
  existing: FunctionRecord | null;
  initial: FunctionForm;
  onChooseAnother?: () => void;
  /** After a successful save or delete: the screen goes back to the template chooser. */
  onDone: () => void;
  /** Whether the editor holds changes that are not saved. */
  onDirtyChange?: (dirty: boolean) => void;
}) {
  const { enqueueSnackbar } = useSnackbar();
  const save = useSaveFunction();
  const [deleting, setDeleting] = useState(false);
  const { control, handleSubmit, formState } = useForm<FunctionForm>({
    resolver: zodResolver(functionForm),
    defaultValues: initial,
    reValidateMode: 'onChange',
  });
  const dirty = formState.isDirty;
  const code = useWatch({ control, name: 'code' });
  useEffect(() => {
    onDirtyChange?.(dirty);
  }, [dirty, onDirtyChange]);
  useEffect(() => () => onDirtyChange?.(false), [onDirtyChange]);
  const ok = (message: string) => enqueueSnackbar(message, { variant: 'success', autoHideDuration: TOAST_SUCCESS_MS });
  const fail = (message: string) => enqueueSnackbar(message, { variant: 'error', autoHideDuration: TOAST_KNOWLEDGE_ERROR_MS });

  const submit = handleSubmit((v) => {
    const action = existing
      ? { action: 'update' as const, id: existing.id, name: v.name, code: v.code, language: 'python' as const }
      : { action: 'new' as const, name: v.name, code: v.code, language: 'python' as const };
    save.mutate(action, {
      onSuccess: () => {
        ok(existing ? 'The function has been updated successfully!' : 'The function has been created successfully!');
        onDone();
      },
      onError: () => fail(existing ? 'Error updating item' : 'Error creating item'),
    });
  });

  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2 }}>
        <Typography variant="h2" component="h1">
          Code Editor
        </Typography>
        {existing && <ApprovalChip status={existing.approvalStatus} />}
      </Stack>
      {existing?.approvalStatus === 'Approved' && (
        <Alert severity="info" sx={{ mt: 2 }}>
          This function is approved. Changing its code sends it back for review; until then avatars cannot use it.
        </Alert>
      )}
      {existing?.approvalStatus === 'Pending' && (
        <Alert severity="warning" sx={{ mt: 2 }}>
          Awaiting review by an administrator. Avatars can use a function only once it is approved.
        </Alert>
      )}
      {existing?.approvalStatus === 'Rejected' && (
        <Alert severity="error" sx={{ mt: 2 }}>
          Rejected{existing.reviewReason ? `: ${existing.reviewReason}` : '.'} Change the code to submit it again.
        </Alert>
      )}
      <Box component="form" noValidate aria-label="Function" onSubmit={submit}>
        <FormTextField control={control} name="name" label="File Name" required placeholder="my_function.py" />
        <Controller
          control={control}
          name="code"
          render={({ field, fieldState }) => (
            <Box sx={{ mt: 2 }}>
              <FormLabel required error={Boolean(fieldState.error)}>
                Code
              </FormLabel>
              <Box
                sx={{
                  mt: 0.5,
                  border: 1,
                  borderColor: fieldState.error ? 'error.main' : 'divider',
                  borderRadius: 1,
                  overflow: 'hidden',
                  fontSize: 14,
                }}
              >
                <CodeMirror
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  height={CODE_HEIGHT}
                  extensions={[python(), codeLabel]}
                  basicSetup={{ lineNumbers: true, foldGutter: false, highlightActiveLine: true }}
                />
              </Box>
              {fieldState.error && <FormHelperText error>{fieldState.error.message}</FormHelperText>}
            </Box>
          )}
        />
        <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap' }}>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            {existing ? 'Update Function' : 'Create Function'}
          </Button>
          {!existing && onChooseAnother && <Button onClick={onChooseAnother}>Choose Another Template</Button>}
          {existing && (
            <Button color="error" onClick={() => setDeleting(true)}>
              Delete Function
            </Button>
          )}
        </Stack>
      </Box>
      <TryFunction code={code} {...(existing ? { id: existing.id } : {})} />
      {existing && <FunctionCalls id={existing.id} />}
      {existing && (
        <ConfirmDialog
          open={deleting}
          title="Delete function"
          onConfirm={async () => {
            await save.mutateAsync({ action: 'delete', id: existing.id });
            // The editor (and this dialog) close at once: a deleted function's code must not
            // stay on screen; the success message is a toast.
            ok('The function has been deleted successfully!');
            onDone();
          }}
          errorTitle="Error deleting item."
          onClose={() => setDeleting(false)}
        >
          {`Are you sure you want to delete "${existing.name}"? It will be removed from every avatar it is linked to. This action cannot be undone.`}
        </ConfirmDialog>
      )}
    </Paper>
  );
}
