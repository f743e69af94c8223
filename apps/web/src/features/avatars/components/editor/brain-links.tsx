// Brain → KNOWLEDGE BASE and FUNCTIONS (spec 2 §2): link collections and approved functions to
// the avatar. The lists hide what is already linked.
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useFormContext, useWatch } from 'react-hook-form';
import type { CustomData } from '@parla/shared/schemas/avatar';
import { errorLines } from '../../../../lib/api-client';
import { useKnowledgeCollections, type KnowledgeCollection } from '../../api/get-knowledge-collections';
import { isApproved, useRealtimeFunctions, type RealtimeFunction } from '../../api/get-realtime-functions';
import type { EditorValues } from '../../lib/editor-values';

export function KnowledgeLinks() {
  const { setValue, getValues } = useFormContext<EditorValues>();
  const custom = useWatch<EditorValues, 'customData'>({ name: 'customData' }) as CustomData | undefined;
  const ids = custom?.collection_ids ?? [];
  const collections = useKnowledgeCollections(true);
  const all = collections.data ?? [];
  const value = ids.map((id) => all.find((c) => c.id === id) ?? { id, name: `Collection ${id.slice(0, 8)}` });
  const set = (next: KnowledgeCollection[]) =>
    setValue('customData', { ...(getValues('customData') ?? {}), collection_ids: next.map((c) => c.id) } as never, { shouldDirty: true });

  return (
    <Box sx={{ display: 'grid', gap: 1.5 }}>
      <Typography color="text.secondary">The avatar answers from the knowledge base collections linked here.</Typography>
      {collections.isError && <Alert severity="error">{errorLines(collections.error).join(' ')}</Alert>}
      <Autocomplete
        multiple
        filterSelectedOptions
        loading={collections.isPending}
        options={all}
        value={value}
        getOptionLabel={(c) => c.name}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        onChange={(_e, next) => set(next)}
        renderInput={(params) => <TextField {...params} label="Knowledge base collections" margin="none" />}
      />
    </Box>
  );
}

export function FunctionLinks() {
  const { setValue } = useFormContext<EditorValues>();
  const ids = useWatch<EditorValues, 'functions'>({ name: 'functions' }) ?? [];
  const functions = useRealtimeFunctions(true);
  const approved = (functions.data?.functions ?? []).filter(isApproved);
  const known = functions.data?.functions ?? [];
  const value = ids.map(
    (id) =>
      known.find((f) => f.id === id) ??
      ({ id, name: `Function ${id.slice(0, 8)}`, approvalStatus: 'Approved', createDate: '' } as RealtimeFunction),
  );

  return (
    <Box sx={{ display: 'grid', gap: 1.5 }}>
      <Typography color="text.secondary">
        The avatar may call the functions linked here during a conversation. Only approved functions can be linked.
      </Typography>
      {functions.isError && <Alert severity="error">{errorLines(functions.error).join(' ')}</Alert>}
      <Autocomplete
        multiple
        filterSelectedOptions
        loading={functions.isPending}
        options={approved}
        value={value}
        getOptionLabel={(f) => f.name}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        onChange={(_e, next) =>
          setValue(
            'functions',
            next.map((f) => f.id),
            { shouldDirty: true },
          )
        }
        renderInput={(params) => <TextField {...params} label="Functions" margin="none" />}
      />
    </Box>
  );
}
