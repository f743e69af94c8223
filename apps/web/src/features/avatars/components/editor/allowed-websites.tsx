// EMBED → Allowed websites (beyond the spec; docs/decisions/205-allowed-websites.md): the origins
// whose pages may open conversations with the avatar. Empty: any site. The portal's own pages
// (the avatar page, the editor preview, the access link) always may. Saved with the avatar.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import CancelIcon from '@mui/icons-material/Cancel';
import { useFormContext, useWatch } from 'react-hook-form';
import { ALLOWED_ORIGINS_MAX, ALLOWED_ORIGINS_MESSAGES, allowedOrigin } from '@parla/shared/schemas/allowed-origins';
import { useFieldInfo } from '../../../../components/info-panel';
import type { EditorValues } from '../../lib/editor-values';
import { EMBED_FIELD_INFO } from './embed-info';

/** The list after adding `text`, or the message that refuses it. */
export function addOrigin(list: readonly string[], text: string): { list: string[] } | { error: string } {
  const parsed = allowedOrigin.safeParse(text);
  if (!parsed.success) return { error: ALLOWED_ORIGINS_MESSAGES.invalid };
  if (list.includes(parsed.data)) return { error: ALLOWED_ORIGINS_MESSAGES.duplicate };
  if (list.length >= ALLOWED_ORIGINS_MAX) return { error: ALLOWED_ORIGINS_MESSAGES.tooMany };
  return { list: [...list, parsed.data] };
}

export function AllowedWebsites() {
  const { setValue } = useFormContext<EditorValues>();
  const list = useWatch<EditorValues, 'allowedOrigins'>({ name: 'allowedOrigins' }) ?? [];
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const info = useFieldInfo(EMBED_FIELD_INFO.allowedWebsites);

  const write = (next: string[]) => setValue('allowedOrigins', next, { shouldDirty: true });
  const add = () => {
    const r = addOrigin(list, text);
    if ('error' in r) return setError(r.error);
    write(r.list);
    setText('');
    setError(null);
  };

  return (
    <Box component="section" aria-labelledby="allowed-websites-title" sx={{ display: 'grid', gap: 1 }}>
      <Typography id="allowed-websites-title" variant="subtitle1" component="h3" sx={{ fontWeight: 700 }}>
        Allowed websites
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Only these websites may embed this avatar (show it in a frame or open conversations with it). Leave the list empty to allow any
        website. The avatar&apos;s own page, the preview and the access link always work.
      </Typography>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <TextField
          label="Website"
          placeholder="https://example.com"
          value={text}
          size="small"
          autoComplete="off"
          slotProps={{ htmlInput: { inputMode: 'url', spellCheck: false } }}
          onChange={(e) => {
            setText(e.target.value);
            if (error) setError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
          error={Boolean(error)}
          helperText={error ?? 'Scheme, host and port, e.g. https://shop.example.com'}
          sx={{ flex: '1 1 280px', maxWidth: 480 }}
          {...info}
        />
        <Button variant="outlined" startIcon={<AddIcon />} onClick={add} disabled={!text.trim()} sx={{ mt: 0.25 }}>
          Add website
        </Button>
      </Box>
      {list.length === 0 ? (
        <Alert severity="info" variant="outlined">
          Any website may embed this avatar.
        </Alert>
      ) : (
        <Box component="ul" aria-label="Allowed websites" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, listStyle: 'none', p: 0, m: 0 }}>
          {list.map((o) => (
            <li key={o}>
              <Chip
                label={o}
                onDelete={() => write(list.filter((x) => x !== o))}
                deleteIcon={<CancelIcon role="button" aria-label={`Remove ${o}`} aria-hidden={false} />}
              />
            </li>
          ))}
        </Box>
      )}
    </Box>
  );
}
