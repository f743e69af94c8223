// The Add Knowledge dialog (spec 4 §2): four tabs, Text, Url, Crawl and File, 720 high, with
// the upload progress overlay over it while knowledge is submitted. A failed upload goes back to
// the form with everything typed still there; closing the dialog with typed work asks first
// (issue 17).
import { useCallback, useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import CloseIcon from '@mui/icons-material/Close';
import { KNOWLEDGE_DIALOG_HEIGHT } from '@parla/shared/schemas/knowledge';
import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { useRefreshItems } from '../api/create-items';
import { CrawlTab } from './crawl-tab';
import { FileTab } from './file-tab';
import type { SubmitContext } from './submit-knowledge';
import { TextTab } from './text-tab';
import { UploadProgressOverlay } from './upload-progress-overlay';
import { UrlTab } from './url-tab';
import { useUploadProgress } from './use-upload-progress';

const TABS = ['Text', 'Url', 'Crawl', 'File'] as const;

export function AddKnowledgeDialog({ collectionId, open, onClose }: { collectionId: string; open: boolean; onClose: () => void }) {
  const [tab, setTab] = useState(0);
  const [retry, setRetryState] = useState<(() => void) | null>(null);
  const refresh = useRefreshItems();
  const done = useCallback(() => onClose(), [onClose]);
  const progress = useUploadProgress(done);
  const setRetry = useCallback((r: (() => void) | null) => setRetryState(() => r), []);
  const [dirtyTabs, setDirtyTabs] = useState<Record<string, boolean>>({});
  const setDirty = useCallback(
    (tabName: string, dirty: boolean) => setDirtyTabs((d) => (d[tabName] === dirty ? d : { ...d, [tabName]: dirty })),
    [],
  );
  const dirty = open && Object.values(dirtyTabs).some(Boolean);
  const { guard, dialog } = useUnsavedChanges(dirty, 'This knowledge');
  const ctx: SubmitContext = useMemo(
    () => ({ collectionId, progress, setRetry, refresh, setDirty }),
    [collectionId, progress, setRetry, refresh, setDirty],
  );
  const busy = progress.state.status === 'normal' || progress.state.status === 'success';

  const closeNow = () => {
    progress.reset();
    setDirtyTabs({});
    onClose();
  };
  const close = () => {
    if (!busy) guard(closeNow);
  };
  // After an error the overlay's Close goes back to the form, which still holds the typed work;
  // after a partial upload (what could be saved is saved, the report was read) it closes.
  const closeOverlay = () => (progress.state.status === 'error' ? progress.reset() : closeNow());

  return (
    <Dialog
      open={open}
      onClose={close}
      fullWidth
      maxWidth="md"
      aria-labelledby="add-knowledge-title"
      slotProps={{ paper: { sx: { height: KNOWLEDGE_DIALOG_HEIGHT, maxHeight: 'calc(100% - 32px)', position: 'relative' } } }}
    >
      <DialogTitle id="add-knowledge-title" sx={{ pr: 6 }}>
        Add Knowledge
        <IconButton aria-label="Close" onClick={close} disabled={busy} sx={{ position: 'absolute', right: 12, top: 12 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <Tabs
        value={tab}
        onChange={(_e, v: number) => setTab(v)}
        aria-label="Kind of knowledge"
        sx={{ px: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        {TABS.map((t) => (
          <Tab key={t} label={t} id={`knowledge-tab-${t}`} aria-controls={`knowledge-panel-${t}`} />
        ))}
      </Tabs>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}>
        {TABS.map((t, i) => (
          <Box
            key={t}
            role="tabpanel"
            id={`knowledge-panel-${t}`}
            aria-labelledby={`knowledge-tab-${t}`}
            hidden={tab !== i}
            sx={{ flex: 1, minHeight: 0, display: tab === i ? 'flex' : 'none', flexDirection: 'column' }}
          >
            {t === 'Text' && <TextTab ctx={ctx} />}
            {t === 'Url' && <UrlTab ctx={ctx} />}
            {t === 'Crawl' && <CrawlTab ctx={ctx} />}
            {t === 'File' && <FileTab ctx={ctx} />}
          </Box>
        ))}
      </DialogContent>
      <UploadProgressOverlay state={progress.state} onRetry={retry ?? undefined} onClose={closeOverlay} />
      {dialog}
    </Dialog>
  );
}
