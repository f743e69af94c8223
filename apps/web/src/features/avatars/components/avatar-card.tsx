// One avatar in the list (spec 2 §2): name (inline edit with the pen while selected), photo (crop
// dialog while selected), id, engine, last update and online users; Edit, or Save and Close when
// selected; Connect; Delete. On mobile only Connect. A card re-renders only when its own props
// change (a long list holds hundreds); only the selected card reads the editor's form.
import { lazy, memo, Suspense, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/Edit';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useSnackbar } from 'notistack';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { AVATAR_CARD_MAX_WIDTH_PX, TOAST_ERROR_MS } from '@parla/shared/limits';
import { accessLink, AVATAR_MESSAGES, ENCRYPTION_DEFAULT, type AvatarCardItem } from '@parla/shared/schemas/avatar';
import { queryClient } from '../../../lib/query-client';
import { getAvatarUsersQueryOptions } from '../api/get-avatar-users';
import type { EditorValues } from '../lib/editor-values';
import { AvatarPhoto } from './avatar-photo';
import { useEditor, useObjectUrl } from './editor/editor-context';

// The card's dialogs load when first opened: they are not part of the avatars screen's first
// load (Bench 6's 300 KB goal for entry + avatars).
const OnlineUsersDialog = lazy(() => import('./online-users-dialog').then((m) => ({ default: m.OnlineUsersDialog })));
const ConversationsDialog = lazy(() => import('./conversations/conversations-dialog').then((m) => ({ default: m.ConversationsDialog })));
const InsightDialog = lazy(() => import('./insight/insight-dialog').then((m) => ({ default: m.InsightDialog })));

export interface AvatarCardProps {
  avatar: AvatarCardItem;
  /** The appearance's own picture (the catalogue's, or an uploaded model's still: decision 127),
   *  shown when the avatar has no photo. */
  faceURL: string | null;
  selected: boolean;
  mobile: boolean;
  busy: boolean;
  onEdit(a: AvatarCardItem): void;
  onSave(): void;
  onClose(): void;
  onDelete(a: AvatarCardItem): void;
}

export function connectLink(a: Pick<AvatarCardItem, 'id' | 'token' | 'encKeyId'>): string {
  return accessLink(window.location.origin, a.id, a.encKeyId === ENCRYPTION_DEFAULT ? a.token : null);
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box sx={{ display: 'contents' }}>
      <Typography component="dt" variant="caption" color="text.secondary" sx={{ pt: 0.25 }}>
        {label}
      </Typography>
      <Box component="dd" sx={{ m: 0, minWidth: 0 }}>
        {children}
      </Box>
    </Box>
  );
}

function SelectedName() {
  const { control } = useFormContext<EditorValues>();
  const name = useWatch<EditorValues, 'name'>({ name: 'name' });
  const [editing, setEditing] = useState(false);
  if (!editing) {
    return (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minWidth: 0 }}>
        <Typography variant="h3" component="h3" noWrap sx={{ fontSize: '1.1rem' }} title={name}>
          {name || '—'}
        </Typography>
        <Tooltip title="Edit name">
          <IconButton size="small" aria-label="Edit avatar name" onClick={() => setEditing(true)}>
            <EditIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Box>
    );
  }
  return (
    <Controller
      control={control}
      name="name"
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          autoFocus
          size="small"
          margin="none"
          label="Avatar Name"
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message}
          onBlur={() => {
            field.onBlur();
            if (field.value.trim()) setEditing(false);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && field.value.trim()) setEditing(false);
          }}
        />
      )}
    />
  );
}

/** The photo of the card being edited: the one waiting for Save, or none when removed. */
function SelectedPhoto({ avatar, faceURL, editable }: { avatar: AvatarCardItem; faceURL: string | null; editable: boolean }) {
  const { uploads, setUpload } = useEditor();
  const { setValue } = useFormContext<EditorValues>();
  const removePhoto = useWatch<EditorValues, 'removeAvatarPhoto'>({ name: 'removeAvatarPhoto' });
  const pendingPhoto = useObjectUrl(uploads.avatarPhoto);
  return (
    <AvatarPhoto
      name={avatar.name}
      url={pendingPhoto ?? (removePhoto ? null : avatar.avatarPhotoURL)}
      faceURL={faceURL}
      editable={editable}
      onPhoto={(photo) => {
        setUpload('avatarPhoto', photo);
        setValue('removeAvatarPhoto', false);
      }}
    />
  );
}

const noPhotoChange = () => undefined;

export const AvatarCard = memo(function AvatarCard({
  avatar,
  faceURL,
  selected,
  mobile,
  busy,
  onEdit,
  onSave,
  onClose,
  onDelete,
}: AvatarCardProps) {
  const { enqueueSnackbar } = useSnackbar();
  const [usersCount, setUsersCount] = useState<number | null>(null);
  const [usersOpen, setUsersOpen] = useState(false);
  const [conversationsOpen, setConversationsOpen] = useState(false);
  const [insightOpen, setInsightOpen] = useState(false);
  const [refreshing, setRefreshing] = useState(false);
  const count = usersCount ?? avatar.usersCount;

  const refresh = async () => {
    setRefreshing(true);
    try {
      const res = await queryClient.fetchQuery({ ...getAvatarUsersQueryOptions(avatar.id), staleTime: 0 });
      setUsersCount(res.onlineUsers.length);
    } catch {
      enqueueSnackbar(AVATAR_MESSAGES.activeUsersFailed, { variant: 'error', autoHideDuration: TOAST_ERROR_MS });
    } finally {
      setRefreshing(false);
    }
  };

  return (
    <Card
      component="article"
      variant="outlined"
      aria-label={`Avatar ${avatar.name}`}
      aria-current={selected || undefined}
      sx={{
        width: '100%',
        maxWidth: mobile ? 'none' : AVATAR_CARD_MAX_WIDTH_PX,
        borderWidth: 2,
        borderColor: selected ? 'primary.main' : 'divider',
        boxShadow: selected ? 3 : 0,
      }}
    >
      <CardContent sx={{ pb: 1 }}>
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', mb: 1.5 }}>
          {selected ? (
            <SelectedPhoto avatar={avatar} faceURL={faceURL} editable={!mobile} />
          ) : (
            <AvatarPhoto name={avatar.name} url={avatar.avatarPhotoURL} faceURL={faceURL} editable={false} onPhoto={noPhotoChange} />
          )}
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Typography variant="caption" color="text.secondary">
              Avatar Name
            </Typography>
            {selected && !mobile ? (
              <SelectedName />
            ) : (
              <Typography variant="h3" component="h3" noWrap sx={{ fontSize: '1.1rem' }} title={avatar.name}>
                {avatar.name}
              </Typography>
            )}
          </Box>
        </Box>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', columnGap: 1.5, rowGap: 0.5, m: 0 }}>
          <Field label="Avatar ID">
            <Typography variant="body2" sx={{ fontFamily: 'monospace', fontSize: '0.75rem', wordBreak: 'break-all' }}>
              {avatar.id}
            </Typography>
          </Field>
          <Field label="Avatar Engine">
            <Typography variant="body2">{avatar.nlpEngineName}</Typography>
          </Field>
          <Field label="Last Updated">
            <Typography variant="body2">{new Date(avatar.updated).toLocaleString()}</Typography>
          </Field>
          <Field label="Online Users">
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
              <Link
                component="button"
                variant="body2"
                onClick={() => setUsersOpen(true)}
                aria-label={`${count} online users of ${avatar.name}`}
              >
                {count}
              </Link>
              <IconButton
                size="small"
                aria-label="Refresh online users"
                onClick={() => void refresh()}
                disabled={refreshing}
                sx={{ p: 0.25 }}
              >
                <RefreshIcon fontSize="small" />
              </IconButton>
            </Box>
          </Field>
        </Box>
        {avatar.startFailure ? (
          <Alert severity="warning" sx={{ mt: 1, py: 0, fontSize: '0.8rem', overflowWrap: 'anywhere' }}>
            The last conversation could not start ({new Date(avatar.startFailure.at).toLocaleString()}): {avatar.startFailure.message}
          </Alert>
        ) : null}
      </CardContent>
      <CardActions
        // The selected card has five buttons: they wrap to a second line rather than shrink
        // below their labels (at 1440 px they overlapped: "CONNECT" over "CONVERSATIONS").
        sx={{
          px: 2,
          pb: 1.5,
          gap: 0.75,
          flexWrap: 'wrap',
          '& .MuiButton-root': { minWidth: 0, px: 1.25, flexShrink: 0 },
          '& > :not(style) ~ :not(style)': { ml: 0 },
        }}
      >
        {!mobile && !selected && (
          <Button size="small" variant="outlined" onClick={() => onEdit(avatar)} disabled={busy}>
            Edit
          </Button>
        )}
        {!mobile && selected && (
          <>
            <Button size="small" variant="contained" onClick={onSave} disabled={busy}>
              Save
            </Button>
            <Button size="small" variant="outlined" onClick={onClose} disabled={busy}>
              Close
            </Button>
          </>
        )}
        <Button size="small" color="secondary" variant="outlined" href={connectLink(avatar)} target="_blank" rel="noopener noreferrer">
          Connect
        </Button>
        <Button size="small" variant="outlined" onClick={() => setConversationsOpen(true)} aria-label={`Conversations of ${avatar.name}`}>
          Conversations
        </Button>
        <Button size="small" variant="outlined" onClick={() => setInsightOpen(true)} aria-label={`Insight of ${avatar.name}`}>
          Insight
        </Button>
        {!mobile && (
          <Button size="small" color="error" onClick={() => onDelete(avatar)} disabled={busy} sx={{ ml: 'auto !important' }}>
            Delete
          </Button>
        )}
      </CardActions>
      <Suspense fallback={null}>
        {usersOpen && <OnlineUsersDialog agentId={avatar.id} name={avatar.name} open onClose={() => setUsersOpen(false)} />}
        {insightOpen && <InsightDialog avatarId={avatar.id} name={avatar.name} onClose={() => setInsightOpen(false)} />}
        {conversationsOpen && (
          <ConversationsDialog avatarId={avatar.id} name={avatar.name} open onClose={() => setConversationsOpen(false)} />
        )}
      </Suspense>
    </Card>
  );
});
