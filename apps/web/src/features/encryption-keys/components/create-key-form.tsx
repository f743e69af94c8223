// 'Create an Encryption Key' (spec 4 §2): an Encryption Name; after creation the private key is
// shown once in a success box with Copy ('Encryption Key Copied!' for 2 s). Keys are not edited.
import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Snackbar from '@mui/material/Snackbar';
import Typography from '@mui/material/Typography';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useSnackbar } from 'notistack';
import { useForm } from 'react-hook-form';
import { COPY_SNACKBAR_MS, TOAST_KNOWLEDGE_ERROR_MS } from '@parla/shared/limits';
import { encKeyForm, type EncKeyForm } from '@parla/shared/schemas/encryption-keys';
import { FormTextField } from '../../../components/form/form-text-field';
import { errorLines } from '../../../lib/api-client';
import { useAddEncKey } from '../api/add-enc-key';

export const KEY_COPIED = 'Encryption Key Copied!';

export function CreateKeyForm() {
  const { enqueueSnackbar } = useSnackbar();
  const add = useAddEncKey();
  const [created, setCreated] = useState<{ name: string; privateKey: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const { control, handleSubmit, reset } = useForm<EncKeyForm>({
    resolver: zodResolver(encKeyForm),
    defaultValues: { name: '' },
    reValidateMode: 'onChange',
  });

  const onSubmit = handleSubmit((v) =>
    add.mutate(v.name, {
      onSuccess: (res) => {
        setCreated({ name: res.key.name, privateKey: res.encKey });
        reset({ name: '' });
      },
      onError: (err) =>
        enqueueSnackbar(`Error creating item. ${errorLines(err).join(' ')}`, {
          variant: 'error',
          autoHideDuration: TOAST_KNOWLEDGE_ERROR_MS,
        }),
    }),
  );

  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.privateKey);
      setCopied(true);
    } catch {
      enqueueSnackbar('Copying is not allowed here: select the key and copy it by hand.', {
        variant: 'error',
        autoHideDuration: TOAST_KNOWLEDGE_ERROR_MS,
      });
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Typography variant="h2" component="h1">
        Create an Encryption Key
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        An avatar protected by a key accepts only access tokens signed with its private key (ES256). We keep the public key; the private key
        is shown once, right after creation.
      </Typography>
      <Box component="form" noValidate aria-label="Create an Encryption Key" onSubmit={onSubmit} sx={{ maxWidth: 520 }}>
        <FormTextField control={control} name="name" label="Encryption Name" required />
        <Button type="submit" variant="contained" sx={{ mt: 2 }} disabled={add.isPending}>
          Create Encryption Key
        </Button>
      </Box>
      {created && (
        <Alert severity="success" sx={{ mt: 3 }} aria-label="Private key">
          <AlertTitle>Encryption key "{created.name}" created</AlertTitle>
          Store this private key now: it is shown only this once and cannot be recovered.
          <Box
            component="pre"
            tabIndex={0}
            aria-label="Private key PEM"
            sx={{
              mt: 1.5,
              p: 1.5,
              bgcolor: 'background.paper',
              border: 1,
              borderColor: 'divider',
              borderRadius: 1,
              fontSize: 12,
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-all',
              userSelect: 'all',
            }}
          >
            {created.privateKey}
          </Box>
          <Button variant="outlined" startIcon={<ContentCopyIcon />} sx={{ mt: 1 }} onClick={() => void copy()}>
            Copy
          </Button>
        </Alert>
      )}
      <Snackbar
        open={copied}
        autoHideDuration={COPY_SNACKBAR_MS}
        onClose={() => setCopied(false)}
        message={KEY_COPIED}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      />
    </Paper>
  );
}
