// The creator/editor (spec 2 §2): five tabs (only APPEARANCE until the avatar exists and the
// account info has loaded), the 240 px live preview, in create mode the name and the START /
// CREATE AVATAR button, and the information panel.
import { lazy, Suspense, useEffect } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useFormContext, useWatch } from 'react-hook-form';
import { SCREEN_MESSAGES } from '@parla/shared/errors';
import { InfoPanel } from '../../../../components/info-panel';
import { FormTextField } from '../../../../components/form/form-text-field';
import type { EditorValues } from '../../lib/editor-values';
import { TabBoundary } from '../tab-boundary';
import { AppearanceTab } from './appearance-tab';
import { useEditor } from './editor-context';
import { PreviewFrame } from './preview-frame';
import { PlanFullNotice } from '../plan-full-notice';
import type { PlanFull } from '../../lib/plan-room';

// Only APPEARANCE shows before an avatar exists; the other tabs are their own chunks (the Brain
// forms alone weigh more than the list), fetched once editing is possible.
const loadEnvironment = () => import('./environment-tab').then((m) => ({ default: m.EnvironmentTab }));
const loadBrain = () => import('./brain-tab').then((m) => ({ default: m.BrainTab }));
const loadAdvanced = () => import('./advanced-tab').then((m) => ({ default: m.AdvancedTab }));
const loadEmbed = () => import('./embed-tab').then((m) => ({ default: m.EmbedTab }));
const EnvironmentTab = lazy(loadEnvironment);
const BrainTab = lazy(loadBrain);
const AdvancedTab = lazy(loadAdvanced);
const EmbedTab = lazy(loadEmbed);

export const EDITOR_TABS = ['APPEARANCE', 'Environment', 'Brain', 'ADVANCED', 'EMBED'] as const;

export interface AvatarEditorProps {
  tab: number;
  onTabChange(next: number): void;
  tabsEnabled: boolean;
  /** The account info failed: the other tabs stay closed until it loads (spec 2 §2). */
  accountInfoFailed?: { retry(): void };
  onCreate(): void;
  busy: boolean;
  planFull?: PlanFull | null;
}

function CreatePanel({ onCreate, busy, full }: { onCreate(): void; busy: boolean; full: boolean }) {
  const { control } = useFormContext<EditorValues>();
  const appearanceId = useWatch<EditorValues, 'appearanceId'>({ name: 'appearanceId' });
  const ready = Boolean(appearanceId);
  return (
    <Box>
      <FormTextField control={control} name="name" label="Avatar Name" required margin="dense" />
      <Button
        fullWidth
        size="large"
        variant="contained"
        color={ready ? 'success' : 'primary'}
        onClick={onCreate}
        disabled={busy || full}
        sx={{ mt: 1 }}
      >
        {full ? 'PLAN FULL' : ready ? 'CREATE AVATAR' : 'START'}
      </Button>
    </Box>
  );
}

export function AvatarEditor({ tab, onTabChange, tabsEnabled, accountInfoFailed, onCreate, busy, planFull }: AvatarEditorProps) {
  const { mode } = useEditor();
  useEffect(() => {
    if (tabsEnabled) for (const load of [loadEnvironment, loadBrain, loadAdvanced, loadEmbed]) void load();
  }, [tabsEnabled]);
  const content = [
    <AppearanceTab key="a" />,
    <EnvironmentTab key="e" />,
    <BrainTab key="b" />,
    <AdvancedTab key="ad" />,
    <EmbedTab key="em" />,
  ][tab];
  return (
    <Box
      sx={{
        flex: 1,
        minWidth: 0,
        display: 'grid',
        // The side column holds the preview at a size a customer can talk to (decision 125).
        gridTemplateColumns: { sm: '1fr', md: 'minmax(0, 1fr) 300px', xl: 'minmax(0, 1fr) 340px' },
        gap: 2,
        alignItems: 'start',
      }}
    >
      <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }}>
        <Tabs
          value={tab}
          onChange={(_e, v: number) => onTabChange(v)}
          variant="scrollable"
          aria-label="Avatar editor"
          sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
        >
          {EDITOR_TABS.map((label, i) => (
            <Tab key={label} label={label} disabled={i > 0 && !tabsEnabled} sx={{ minWidth: 0, px: 1.75 }} />
          ))}
        </Tabs>
        {mode === 'edit' && accountInfoFailed && (
          <Alert
            severity="error"
            sx={{ mb: 2 }}
            action={
              <Button color="inherit" size="small" onClick={accountInfoFailed.retry}>
                Retry
              </Button>
            }
          >
            {SCREEN_MESSAGES.accountDetailsFailed}
          </Alert>
        )}
        {mode === 'create' && planFull && <PlanFullNotice full={planFull} sx={{ mb: 2 }} />}
        <TabBoundary key={tab} name={EDITOR_TABS[tab]!}>
          <Suspense
            fallback={
              <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
                <CircularProgress aria-label={`Loading ${EDITOR_TABS[tab]}`} />
              </Box>
            }
          >
            {content}
          </Suspense>
        </TabBoundary>
      </Paper>
      <Box sx={{ display: 'grid', gap: 2, position: { md: 'sticky' }, top: { md: 16 } }}>
        <PreviewFrame />
        {mode === 'create' && <CreatePanel onCreate={onCreate} busy={busy} full={Boolean(planFull)} />}
        <InfoPanel />
      </Box>
    </Box>
  );
}
