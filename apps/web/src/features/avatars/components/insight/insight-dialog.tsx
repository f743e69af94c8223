// An avatar's insight (issue 38): its conversations over a date range, and its knowledge gaps —
// the questions it could not answer, grouped, with one click to write the missing answer.
// Opened from the avatar card ('Insight').
import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { InsightPanel } from './insight-panel';
import { KnowledgeGapsPanel } from './knowledge-gaps-panel';

export function InsightDialog({ avatarId, name, onClose }: { avatarId: string; name: string; onClose(): void }) {
  const [tab, setTab] = useState<'insight' | 'gaps'>('insight');
  return (
    <Dialog open onClose={onClose} maxWidth="lg" fullWidth aria-labelledby="insight-title">
      <DialogTitle id="insight-title">Insight: {name}</DialogTitle>
      <Tabs value={tab} onChange={(_, v: 'insight' | 'gaps') => setTab(v)} sx={{ px: 3 }} aria-label="Insight sections">
        <Tab value="insight" label="Conversations" />
        <Tab value="gaps" label="Knowledge gaps" />
      </Tabs>
      <DialogContent dividers sx={{ minHeight: 480 }}>
        {tab === 'insight' ? <InsightPanel avatarId={avatarId} /> : <KnowledgeGapsPanel avatarId={avatarId} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
