// AVATAR/ENVIRONMENT JSON and CLIENT JSON (spec 2 §2, §5): an in-page editor whose text must
// parse ('JSON is invalid') and fit the file's schema; a self-hosted file is shown read-only with
// a notice, and a confirmation transfers its hosting to the provider, after which it is editable.
import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import TextField from '@mui/material/TextField';
import CodeMirror from '@uiw/react-codemirror';
import { json as jsonLanguage } from '@codemirror/lang-json';
import { useSnackbar } from 'notistack';
import { useFormContext, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { PRODUCT_NAME } from '@parla/shared/enums';
import { TOAST_SUCCESS_MS } from '@parla/shared/limits';
import { AVATAR_MESSAGES, configFileUrl } from '@parla/shared/schemas/avatar';
import { configSelfHosted } from '../../lib/config-hosting';
import { avatarJson as avatarJsonSchema, clientJson as clientJsonSchema } from '@parla/shared/schemas/player';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { useFieldInfo, type FieldInfo } from '../../../../components/info-panel';
import { errorLines } from '../../../../lib/api-client';
import { useConfigFile } from '../../api/get-config-file';
import type { EditorValues } from '../../lib/editor-values';
import { useEditor, useTabValidator } from './editor-context';

const FILES = {
  avatarJson: { urlField: 'avatarConfigURL', file: 'avatar.json', schema: avatarJsonSchema, label: 'Avatar config URL' },
  clientJson: { urlField: 'clientConfigURL', file: 'client.json', schema: clientJsonSchema, label: 'Client config URL' },
} as const;

/** The text's parsed value, or the message under the editor ('JSON is invalid', and why). */
function checkText(schema: z.ZodType, text: string): { data: unknown; error: string | null } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { data: undefined, error: AVATAR_MESSAGES.jsonInvalid };
  }
  const checked = schema.safeParse(parsed);
  if (checked.success) return { data: checked.data, error: null };
  return {
    data: undefined,
    error: `${AVATAR_MESSAGES.jsonInvalid}: ${checked.error.issues.map((i) => `${i.path.join('.') || 'file'} ${i.message}`).join('; ')}`,
  };
}

export function JsonConfigEditor({ field, tab, info }: { field: 'avatarJson' | 'clientJson'; tab: number; info: FieldInfo }) {
  const spec = FILES[field];
  const { enqueueSnackbar } = useSnackbar();
  const { saved, jsonDrafts, setJsonDraft } = useEditor();
  const { setValue, getValues } = useFormContext<EditorValues>();
  const url = useWatch<EditorValues, 'avatarConfigURL' | 'clientConfigURL'>({ name: spec.urlField }) ?? null;
  const origin = window.location.origin;
  const selfHosted = configSelfHosted(url, saved ?? null, spec.urlField, origin);
  const remote = useConfigFile(selfHosted ? url : null, true, saved?.updated ?? '');
  // Text that did not parse is unsaved work the form cannot hold: it survives a change of sub-tab
  // and counts as unsaved when leaving (issue 17, decision 504).
  const [text, setText] = useState(() => jsonDrafts[field] ?? JSON.stringify(getValues(field) ?? {}, null, 2));
  const [error, setError] = useState<string | null>(() =>
    jsonDrafts[field] === undefined ? null : checkText(spec.schema, jsonDrafts[field]).error,
  );
  const [confirming, setConfirming] = useState(false);
  const fieldInfo = useFieldInfo(info);
  const extensions = useMemo(() => [jsonLanguage()], []);

  useTabValidator(tab, field, () => selfHosted || error === null);

  const onChange = (next: string) => {
    setText(next);
    const checked = checkText(spec.schema, next);
    setError(checked.error);
    if (checked.error !== null) {
      setJsonDraft(field, next);
      return;
    }
    setJsonDraft(field, null);
    setValue(field, checked.data as never, { shouldDirty: true, shouldValidate: true });
  };

  const transfer = async () => {
    if (remote.data !== undefined) {
      const checked = spec.schema.safeParse(remote.data);
      if (checked.success) {
        setValue(field, checked.data as never, { shouldDirty: true });
        setText(JSON.stringify(checked.data, null, 2));
      }
    }
    setValue(spec.urlField, saved ? configFileUrl(origin, saved.id, spec.file) : undefined, { shouldDirty: true });
    setError(null);
    setJsonDraft(field, null);
    enqueueSnackbar(`${PRODUCT_NAME} will host this file once you save the avatar.`, {
      variant: 'info',
      autoHideDuration: TOAST_SUCCESS_MS,
    });
  };

  return (
    <Box sx={{ display: 'grid', gap: 1.5 }}>
      <TextField label={spec.label} value={url ?? ''} size="small" margin="none" slotProps={{ input: { readOnly: true } }} {...fieldInfo} />
      {selfHosted ? (
        <>
          <Alert
            severity="info"
            action={
              <Button color="inherit" size="small" onClick={() => setConfirming(true)}>
                Transfer hosting
              </Button>
            }
          >
            This file is self-hosted at the URL above, so it is shown read-only. Edit it on your server, or transfer its hosting to{' '}
            {PRODUCT_NAME} to edit it here.
          </Alert>
          {remote.isError && (
            <Alert severity="warning">The file could not be read from its URL: {errorLines(remote.error).join(' ')}</Alert>
          )}
          <Box {...fieldInfo} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden' }}>
            <CodeMirror
              value={remote.data === undefined ? '' : JSON.stringify(remote.data, null, 2)}
              extensions={extensions}
              readOnly
              editable={false}
              height="360px"
              aria-label={`${spec.file} (read-only)`}
            />
          </Box>
        </>
      ) : (
        <>
          <Box {...fieldInfo} sx={{ border: 1, borderColor: error ? 'error.main' : 'divider', borderRadius: 1, overflow: 'hidden' }}>
            <CodeMirror
              value={text}
              extensions={extensions}
              onChange={onChange}
              height="360px"
              aria-label={spec.file}
              basicSetup={{ foldGutter: true, lineNumbers: true }}
            />
          </Box>
          {error && (
            <FormHelperText error role="alert">
              {error}
            </FormHelperText>
          )}
        </>
      )}
      <ConfirmDialog
        open={confirming}
        title={`Transfer hosting to ${PRODUCT_NAME}?`}
        confirmLabel="Transfer"
        confirmColor="primary"
        successMessage="Hosting transferred. Save the avatar to keep the change."
        errorTitle="Transfer failed"
        closeAfterSuccessMs={1200}
        onConfirm={transfer}
        onClose={(outcome) => {
          setConfirming(false);
          if (outcome === 'cancelled') enqueueSnackbar(AVATAR_MESSAGES.userDenied, { variant: 'info', autoHideDuration: TOAST_SUCCESS_MS });
        }}
      >
        {`From now on ${PRODUCT_NAME} hosts ${spec.file} for this avatar, starting from the content shown here. When you save the avatar, the URL changes to the ${PRODUCT_NAME} address and you can edit the file in this page.`}
      </ConfirmDialog>
    </Box>
  );
}
