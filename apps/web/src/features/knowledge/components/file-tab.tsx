// Add Knowledge › File: a name and one document (Text/Markdown 5 MB, DOCX 20 MB, PDF 25 MB),
// checked here and again on the server. The upload shows real progress (bytes sent), then the
// item is created (spec 4 §5, §8).
import { useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { useSnackbar } from 'notistack';
import { TOAST_KNOWLEDGE_ERROR_MS } from '@parla/shared/limits';
import { checkKnowledgeFile, KNOWLEDGE_FILE_TYPES } from '@parla/shared/schemas/knowledge';
import { errorLines } from '../../../lib/api-client';
import { createItem } from '../api/create-items';
import { uploadFile } from '../api/upload-file';
import { DOCUMENT_ERROR, FILE_UPLOAD_ERROR, FILE_UPLOAD_TOAST, useReportDirty, type SubmitContext } from './submit-knowledge';

const ACCEPT = Object.values(KNOWLEDGE_FILE_TYPES)
  .flatMap((t) => [...t.extensions])
  .join(',');
/** The upload's share of the bar; creating the item is the rest. */
const UPLOAD_SHARE = 90;

export function FileTab({ ctx }: { ctx: SubmitContext }) {
  const { enqueueSnackbar } = useSnackbar();
  const input = useRef<HTMLInputElement>(null);
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  // Set when the Name field is left or Submit is tried: then a missing name or file is said
  // (Submit stays disabled until both are set, so it alone would never show 'File is required').
  const [touched, setTouched] = useState(false);
  useReportDirty(ctx, 'File', Boolean(name.trim() || file));

  const choose = (f: File | undefined) => {
    if (!f) return;
    const problem = checkKnowledgeFile(f);
    if (problem) {
      setFile(null);
      setFileError(problem);
      if (input.current) input.current.value = '';
      return;
    }
    setFileError(null);
    setFile(f);
    if (!name.trim()) setName(f.name.replace(/\.[^.]+$/, ''));
  };

  const submit = async (chosen: File, itemName: string) => {
    ctx.progress.start({ measured: true });
    let uploaded;
    try {
      uploaded = await uploadFile(chosen, (f) => ctx.progress.measure(f, UPLOAD_SHARE));
    } catch (err) {
      enqueueSnackbar(FILE_UPLOAD_TOAST, { variant: 'error', autoHideDuration: TOAST_KNOWLEDGE_ERROR_MS });
      ctx.setRetry(() => () => void submit(chosen, itemName));
      ctx.progress.fail(`${FILE_UPLOAD_ERROR} ${errorLines(err).join(' ')}`);
      return;
    }
    ctx.progress.simulate(); // creating the item cannot be measured
    try {
      await createItem(ctx.collectionId, { name: itemName, knowledge_type: { file: uploaded } });
      await ctx.refresh(ctx.collectionId);
      ctx.setRetry(null);
      ctx.progress.succeed(true);
    } catch (err) {
      ctx.setRetry(() => () => void submit(chosen, itemName));
      ctx.progress.fail(`${DOCUMENT_ERROR} ${errorLines(err).join(' ')}`);
    }
  };

  return (
    <Box
      component="form"
      noValidate
      aria-label="Add file knowledge"
      onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
        if (file && name.trim()) void submit(file, name.trim());
      }}
      sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}
    >
      <TextField
        label="Name"
        required
        value={name}
        onChange={(e) => setName(e.target.value)}
        onBlur={() => setTouched(true)}
        error={touched && !name.trim()}
        helperText={touched && !name.trim() ? 'Name is required' : undefined}
      />
      <Box
        sx={{ mt: 2, p: 3, border: '2px dashed', borderColor: fileError ? 'error.main' : 'divider', borderRadius: 2, textAlign: 'center' }}
        onDragOver={(e) => e.preventDefault()}
        onDrop={(e) => {
          e.preventDefault();
          choose(e.dataTransfer.files[0]);
        }}
      >
        <UploadFileIcon color="action" sx={{ fontSize: 40 }} />
        <Typography sx={{ mt: 1 }}>
          {file ? `${file.name} (${(file.size / 1024).toFixed(1)} KB)` : 'Drop a document here, or choose one.'}
        </Typography>
        <Button variant="outlined" sx={{ mt: 1 }} onClick={() => input.current?.click()}>
          Choose File
        </Button>
        <input ref={input} type="file" hidden accept={ACCEPT} aria-label="Document file" onChange={(e) => choose(e.target.files?.[0])} />
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {Object.values(KNOWLEDGE_FILE_TYPES)
            .map((t) => `${t.label} (${t.extensions.join(', ')}) up to ${t.maxBytes / 1024 / 1024} MB`)
            .join(' · ')}
        </Typography>
      </Box>
      {fileError && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {fileError}
        </Alert>
      )}
      {touched && !file && !fileError && (
        <Alert severity="error" sx={{ mt: 1 }}>
          File is required
        </Alert>
      )}
      <Box sx={{ mt: 'auto', pt: 2, display: 'flex', justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" disabled={!file || !name.trim()}>
          Submit
        </Button>
      </Box>
    </Box>
  );
}
