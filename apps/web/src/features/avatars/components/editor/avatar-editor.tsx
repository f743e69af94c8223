// The creator/editor (spec 2 §2): five tabs (only APPEARANCE until the avatar exists and the
// account info has loaded), the 240 px live preview, in create mode the name and the START /
// CREATE AVATAR button, and the information panel.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useFormContext, useWatch } from 'react-hook-form';
import { SCREEN_MESSAGES } from '@parla/shared/errors';
import { InfoPanel } from '../../../../components/info-panel';
import { FormTextField } from '../../../../components/form/form-text-field';
import type { EditorValues } from '../../lib/editor-values';
import { TabBoundary } from '../tab-boundary';
import { AdvancedTab } from './advanced-tab';
import { AppearanceTab } from './appearance-tab';
import { BrainTab } from './brain-tab';
import { useEditor } from './editor-context';
import { EmbedTab } from './embed-tab';
import { EnvironmentTab } from './environment-tab';
import { PreviewFrame } from './preview-frame';

export const EDITOR_TABS = ['APPEARANCE', 'Environment', 'Brain', 'ADVANCED', 'EMBED'] as const;

export interface AvatarEditorProps {
  tab: number;
  onTabChange(next: number): void;
  tabsEnabled: boolean;
  /** The account info failed: the other tabs stay closed until it loads (spec 2 §2). */
  accountInfoFailed?: { retry(): void };
  onCreate(): void;
  busy: boolean;
}

function CreatePanel({ onCreate, busy }: { onCreate(): void; busy: boolean }) {
  const { control } = useFormContext<EditorValues>();
  const appearanceId = useWatch<EditorValues, 'appearanceId'>({ name: 'appearanceId' });
  const ready = Boolean(appearanceId);
  return (
    <Box>
      <FormTextField control={control} name="name" label="Avatar Name" required margin="dense" />
      <Button fullWidth size="large" variant="contained" color={ready ? 'success' : 'primary'} onClick={onCreate} disabled={busy} sx={{ mt: 1 }}>
        {ready ? 'CREATE AVATAR' : 'START'}
      </Button>
    </Box>
  );
}

export function AvatarEditor({ tab, onTabChange, tabsEnabled, accountInfoFailed, onCreate, busy }: AvatarEditorProps) {
  const { mode } = useEditor();
  const content = [<AppearanceTab key="a" />, <EnvironmentTab key="e" />, <BrainTab key="b" />, <AdvancedTab key="ad" />, <EmbedTab key="em" />][tab];
  return (
    <Box sx={{ flex: 1, minWidth: 0, display: 'grid', gridTemplateColumns: { sm: '1fr', md: 'minmax(0, 1fr) 260px', xl: 'minmax(0, 1fr) 300px' }, gap: 2, alignItems: 'start' }}>
      <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }}>
        <Tabs value={tab} onChange={(_e, v: number) => onTabChange(v)} variant="scrollable" aria-label="Avatar editor" sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
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
        <TabBoundary key={tab} name={EDITOR_TABS[tab]!}>
          {content}
        </TabBoundary>
      </Paper>
      <Box sx={{ display: 'grid', gap: 2, position: { md: 'sticky' }, top: { md: 16 } }}>
        <PreviewFrame />
        {mode === 'create' && <CreatePanel onCreate={onCreate} busy={busy} />}
        <InfoPanel />
      </Box>
    </Box>
  );
}
