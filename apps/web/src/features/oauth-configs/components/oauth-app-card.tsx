// One OAuth config as an expandable card: the summary names it, the details show its values
// (long ones truncated), the callback URL to register with the partner, Edit and Delete.
import { useState, type ReactNode } from 'react';
import Accordion from '@mui/material/Accordion';
import AccordionActions from '@mui/material/AccordionActions';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import dayjs from 'dayjs';
import { useSnackbar } from 'notistack';
import { COPY_SNACKBAR_MS } from '@parla/shared/limits';
import type { OAuthApp } from '@parla/shared/schemas/oauth';
import { truncate } from './truncate';

function Row({ label, children, full }: { label: string; children: ReactNode; full?: string }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: '160px 1fr' },
        gap: { xs: 0, sm: 2 },
        py: 0.75,
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography
        variant="body2"
        component="div"
        title={full}
        sx={{ wordBreak: 'break-all', display: 'flex', alignItems: 'center', gap: 0.5 }}
      >
        {children}
      </Typography>
    </Box>
  );
}

const when = (iso: string) => dayjs(iso).format('D MMM YYYY HH:mm');

export function OAuthAppCard({ app, onEdit, onDelete }: { app: OAuthApp; onEdit: () => void; onDelete: () => void }) {
  const [open, setOpen] = useState(false);
  const { enqueueSnackbar } = useSnackbar();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(app.callbackURL);
      enqueueSnackbar('Copied to clipboard.', { variant: 'success', autoHideDuration: COPY_SNACKBAR_MS });
    } catch {
      enqueueSnackbar('Failed to copy.', { variant: 'error', autoHideDuration: COPY_SNACKBAR_MS });
    }
  };
  return (
    <Accordion
      expanded={open}
      onChange={(_e, v) => setOpen(v)}
      variant="outlined"
      disableGutters
      sx={{ '&:before': { display: 'none' }, borderRadius: 2 }}
    >
      <AccordionSummary expandIcon={<ExpandMoreIcon />} aria-controls={`oauth-${app.appId}-details`} id={`oauth-${app.appId}-summary`}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap', minWidth: 0 }}>
          <Typography sx={{ fontWeight: 600 }}>{app.appName}</Typography>
          <Chip size="small" label={app.partner} />
          <Typography variant="body2" color="text.secondary">
            ID {app.appId}
          </Typography>
        </Box>
      </AccordionSummary>
      <AccordionDetails id={`oauth-${app.appId}-details`}>
        <Row label="Config ID">{app.appId}</Row>
        <Row label="OAuth Identity Service">{app.partner}</Row>
        <Row label="Client ID" full={app.clientId}>
          {truncate(app.clientId)}
        </Row>
        <Row label="Client Secret">{truncate(app.clientSecret)}</Row>
        <Row label="OAuth URL" full={app.oauthURL}>
          {truncate(app.oauthURL)}
        </Row>
        <Row label="Token Issue URL" full={app.tokenIssueURL}>
          {truncate(app.tokenIssueURL)}
        </Row>
        <Row label="Callback URL" full={app.callbackURL}>
          <span>{app.callbackURL}</span>
          <Tooltip title="Copy the callback URL">
            <IconButton size="small" aria-label="Copy callback URL" onClick={() => void copy()}>
              <ContentCopyIcon fontSize="inherit" />
            </IconButton>
          </Tooltip>
        </Row>
        <Row label="Created">{when(app.created)}</Row>
        <Row label="Updated">{when(app.updated)}</Row>
      </AccordionDetails>
      <AccordionActions>
        <Button onClick={onEdit}>Edit</Button>
        <Button color="error" onClick={onDelete}>
          Delete
        </Button>
      </AccordionActions>
    </Accordion>
  );
}
