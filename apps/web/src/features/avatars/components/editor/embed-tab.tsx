// EMBED (spec 2 §2): the IFrame snippet with copy and the URL parameters, and the two JSON files;
// beyond the spec, regenerating the access link and the avatar's allowed websites.
import { lazy, Suspense, useState } from 'react';
import CircularProgress from '@mui/material/CircularProgress';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tab from '@mui/material/Tab';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useSnackbar } from 'notistack';
import { COPY_SNACKBAR_MS } from '@parla/shared/limits';
import { accessLink, AVATAR_MESSAGES, ENCRYPTION_DEFAULT } from '@parla/shared/schemas/avatar';
import { useFieldInfo } from '../../../../components/info-panel';
import { AllowedWebsites } from './allowed-websites';
import { RegenerateLink } from './regenerate-link';
import { useEditor } from './editor-context';
import { EMBED_FIELD_INFO, URL_PARAMS, type UrlParam } from './embed-info';
// CodeMirror is the largest part of the editor: load it when a JSON tab opens.
const JsonConfigEditor = lazy(async () => ({ default: (await import('./json-config-editor')).JsonConfigEditor }));

export const EMBED_TAB = 4;
const IFRAME_ALLOW = 'camera; microphone; fullscreen; autoplay; encrypted-media; picture-in-picture';

export function embedSnippet(src: string): string {
  return `<iframe src="${src}" width="100%" height="640" style="border:0" allow="${IFRAME_ALLOW}" allowfullscreen></iframe>`;
}

function ParamRow({ param }: { param: UrlParam }) {
  const info = useFieldInfo(param.info);
  return (
    <TableRow hover onClick={info.onClick} sx={{ cursor: 'pointer' }} tabIndex={0} onFocus={info.onFocus}>
      <TableCell sx={{ fontFamily: 'monospace' }}>{param.name}</TableCell>
      <TableCell>{param.values}</TableCell>
      <TableCell sx={{ fontFamily: 'monospace', fontSize: '0.8rem' }}>{param.example}</TableCell>
    </TableRow>
  );
}

function IframePanel() {
  const { saved, onTokenChanged } = useEditor();
  const { enqueueSnackbar } = useSnackbar();
  const info = useFieldInfo(EMBED_FIELD_INFO.snippet);
  if (!saved) return null;
  // The link token opens the avatar only with the Default option (decision 207).
  const withToken = saved.encKeyId === ENCRYPTION_DEFAULT;
  const link = accessLink(window.location.origin, saved.id, withToken ? saved.token : null);
  const snippet = embedSnippet(link);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      enqueueSnackbar(AVATAR_MESSAGES.copied, { variant: 'success', autoHideDuration: COPY_SNACKBAR_MS });
    } catch {
      enqueueSnackbar(AVATAR_MESSAGES.copyFailed, { variant: 'error', autoHideDuration: COPY_SNACKBAR_MS });
    }
  };
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box
        {...info}
        sx={{
          position: 'relative',
          bgcolor: '#0f172a',
          color: '#e2e8f0',
          borderRadius: 1.5,
          p: 2,
          pr: 14,
          fontFamily: 'monospace',
          fontSize: '0.85rem',
          wordBreak: 'break-all',
        }}
        aria-label="Embed code"
      >
        {snippet}
        <Button
          size="small"
          variant="contained"
          startIcon={<ContentCopyIcon />}
          onClick={() => void copy()}
          sx={{ position: 'absolute', top: 10, right: 10 }}
        >
          Copy
        </Button>
      </Box>
      {withToken && <RegenerateLink avatarId={saved.id} link={link} onToken={(token) => onTokenChanged?.(token)} />}
      <AllowedWebsites />
      <Box>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700 }}>
          URL parameters
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Add them to the src of the iframe, e.g. <code>&amp;hideChatHistory=true</code>. Click a row to learn more.
        </Typography>
        <Table size="small" aria-label="URL parameters">
          <TableHead>
            <TableRow>
              <TableCell>Parameter</TableCell>
              <TableCell>Values</TableCell>
              <TableCell>Example</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {URL_PARAMS.map((p) => (
              <ParamRow key={p.name} param={p} />
            ))}
          </TableBody>
        </Table>
      </Box>
    </Box>
  );
}

export function EmbedTab() {
  const { saved } = useEditor();
  const [sub, setSub] = useState(0);
  if (!saved?.id) return <Alert severity="info">{AVATAR_MESSAGES.firstCreate}</Alert>;
  return (
    <Box>
      <Tabs value={sub} onChange={(_e, v: number) => setSub(v)} aria-label="Embed sections" sx={{ mb: 2 }}>
        <Tab label="IFrame" />
        <Tab label="AVATAR/ENVIRONMENT JSON" />
        <Tab label="CLIENT JSON" />
      </Tabs>
      {sub === 0 && <IframePanel />}
      <Suspense fallback={<CircularProgress size={28} aria-label="Loading editor" />}>
        {sub === 1 && <JsonConfigEditor key="avatar" field="avatarJson" tab={EMBED_TAB} info={EMBED_FIELD_INFO.avatarConfig} />}
        {sub === 2 && <JsonConfigEditor key="client" field="clientJson" tab={EMBED_TAB} info={EMBED_FIELD_INFO.clientConfig} />}
      </Suspense>
    </Box>
  );
}
