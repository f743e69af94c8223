// The list side of the avatar screen (spec 2 §2): heading per width, the add button, the search
// bar (showSearchBar), 'Fetching Agents...', the failure banner with hints, the empty prompt and
// the cards. A long list comes a page at a time with 'Load more' under the cards; while the whole
// list is in hand the search filters it at once, otherwise the server searches every avatar id.
import { useLayoutEffect, useMemo, useRef, useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import type { UseInfiniteQueryResult } from '@tanstack/react-query';
import { AVATAR_MESSAGES, type AvatarCardItem } from '@parla/shared/schemas/avatar';
import { errorLines } from '../../../lib/api-client';
import { cardsOf, useAvatars, type AvatarPages } from '../api/get-avatars';
import { useCatalogueAvatars } from '../api/get-catalogue';
import { AvatarCard } from './avatar-card';
import { PlanFullNotice } from './plan-full-notice';
import type { PlanFull } from '../lib/plan-room';

const SEARCH_DELAY_MS = 250;

/** The search text once the user has stopped typing for a moment. */
function useSettled(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), SEARCH_DELAY_MS);
    return () => clearTimeout(t);
  }, [value]);
  return settled;
}

export interface AvatarListPanelProps {
  avatars: UseInfiniteQueryResult<AvatarPages>;
  mobile: boolean;
  showSearchBar: boolean;
  selectedId: string | null;
  busy: boolean;
  onAdd(): void;
  onEdit(a: AvatarCardItem): void;
  onSave(): void;
  onClose(): void;
  onDelete(a: AvatarCardItem): void;
  /** The plan allows no more avatars: said under the add button, before any choice. */
  planFull?: PlanFull | null;
}

export function AvatarListPanel(p: AvatarListPanelProps) {
  // Callbacks that keep their identity, so that a card re-renders only when its own data does.
  const latest = useRef(p);
  useLayoutEffect(() => {
    latest.current = p;
  });
  const handlers = useMemo(
    () => ({
      onEdit: (a: AvatarCardItem) => latest.current.onEdit(a),
      onSave: () => latest.current.onSave(),
      onClose: () => latest.current.onClose(),
      onDelete: (a: AvatarCardItem) => latest.current.onDelete(a),
    }),
    [],
  );
  // The cards' faces: each appearance's picture, looked up once for the whole list.
  const catalogue = useCatalogueAvatars();
  const faces = useMemo(() => new Map((catalogue.data?.avatars ?? []).map((c) => [c.id, c.previewURL])), [catalogue.data]);
  const [search, setSearch] = useState('');
  const term = search.trim().toLowerCase();
  const all = cardsOf(p.avatars.data);
  const complete = p.avatars.isSuccess && !p.avatars.hasNextPage;
  const settled = useSettled(term);
  const remote = useAvatars(settled, p.showSearchBar && Boolean(term) && !complete);
  const searching = Boolean(term) && !complete;
  const shown = !term
    ? all
    : complete
      ? all.filter((a) => a.id.toLowerCase().includes(term))
      : settled === term
        ? cardsOf(remote.data)
        : [];
  const pages = searching ? remote : p.avatars;

  return (
    <Box
      component="section"
      aria-label="Your avatars"
      sx={{ width: { xs: '100%', sm: 336 }, flexShrink: 0, display: 'flex', flexDirection: 'column', gap: 1.5 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <Typography variant="h1" component="h1" sx={{ fontSize: '1.5rem', whiteSpace: 'nowrap' }}>
          {p.mobile ? 'Your Avatars' : 'Avatar Creator'}
        </Typography>
        <Button
          variant="contained"
          size="small"
          startIcon={<AddIcon />}
          onClick={p.onAdd}
          disabled={p.busy}
          sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
        >
          Add Avatar
        </Button>
      </Box>
      {p.planFull && !p.mobile && <PlanFullNotice full={p.planFull} />}
      {p.mobile && (
        <Alert severity="info">
          To create and manage avatars, please use a desktop computer. Here you can see your avatars and connect to them.
        </Alert>
      )}
      {p.showSearchBar && (
        <TextField
          label="Search by Avatar ID"
          size="small"
          margin="none"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
      )}
      {p.avatars.isPending && (
        <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 3 }}>
          <CircularProgress size={22} />
          <Typography color="text.secondary">{AVATAR_MESSAGES.loading}</Typography>
        </Box>
      )}
      {p.avatars.isError && (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void p.avatars.refetch()}>
              Retry
            </Button>
          }
        >
          <AlertTitle>{AVATAR_MESSAGES.fetchFailed}</AlertTitle>
          {errorLines(p.avatars.error).join(' ')}
          <Box component="ul" sx={{ m: 0, mt: 1, pl: 2.5 }}>
            <li>Check your internet connection, then retry.</li>
            <li>If it keeps failing, sign out and sign in again.</li>
            <li>Still failing? Contact support with the time it happened.</li>
          </Box>
        </Alert>
      )}
      {p.avatars.isSuccess && all.length === 0 && (
        <Alert severity="info" icon={false}>
          <AlertTitle>No avatars yet</AlertTitle>
          {p.mobile
            ? 'Avatars you create on a desktop computer appear here.'
            : 'Choose an avatar from the grid: the START button becomes CREATE AVATAR; click it to make your first one.'}
        </Alert>
      )}
      {searching && (settled !== term || remote.isPending) && (
        <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 1 }}>
          <CircularProgress size={18} />
          <Typography color="text.secondary">Searching every avatar…</Typography>
        </Box>
      )}
      {p.avatars.isSuccess && all.length > 0 && shown.length === 0 && (!searching || remote.isSuccess) && settled === term && (
        <Typography color="text.secondary">No avatar id contains “{search}”.</Typography>
      )}
      <Box sx={{ display: 'grid', gap: 1.5, justifyItems: { xs: 'stretch', sm: 'start' } }}>
        {shown.map((a) => (
          <AvatarCard
            key={a.id}
            avatar={a}
            faceURL={a.stillURL ?? faces.get(a.appearanceId) ?? null}
            selected={!p.mobile && a.id === p.selectedId}
            mobile={p.mobile}
            busy={p.busy}
            onEdit={handlers.onEdit}
            onSave={handlers.onSave}
            onClose={handlers.onClose}
            onDelete={handlers.onDelete}
          />
        ))}
      </Box>
      {pages.hasNextPage && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
          <Typography variant="body2" color="text.secondary">
            Showing {shown.length.toLocaleString()} avatars
          </Typography>
          <Button size="small" variant="outlined" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
            {pages.isFetchingNextPage ? 'Loading…' : 'Load more avatars'}
          </Button>
        </Box>
      )}
    </Box>
  );
}
