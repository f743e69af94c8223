// ADVANCED (spec 2 §2): the container of the advanced settings (spec 3): general settings,
// interruptions and voice activity detection, as saved with the avatar.
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useWatch } from 'react-hook-form';
import { ENCRYPTION_DEFAULT, ENCRYPTION_NONE, type CustomData } from '@parla/shared/schemas/avatar';
import type { EditorValues } from '../../lib/editor-values';

const seconds = (v: number | undefined) => (v === undefined ? undefined : v === -1 ? 'Unlimited' : `${v} s`);

function Section({ title, rows }: { title: string; rows: [string, unknown][] }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700, mb: 1 }}>{title}</Typography>
      <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}>
        {rows
          .filter(([, v]) => v !== undefined && v !== null && v !== '')
          .map(([k, v]) => (
            <Box key={k} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="body2" color="text.secondary">{k}</Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-word' }}>{typeof v === 'boolean' ? (v ? 'Yes' : 'No') : String(v)}</Typography>
            </Box>
          ))}
      </Box>
    </Paper>
  );
}

export function AdvancedTab() {
  const v = useWatch<EditorValues>() as EditorValues;
  const custom = (v.customData ?? {}) as CustomData;
  const pipeline = custom.agent_pipeline_config ?? {};
  const enc = v.encKeyId === ENCRYPTION_DEFAULT ? 'Default (token in URL)' : v.encKeyId === ENCRYPTION_NONE ? 'None' : v.encKeyId;
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Section
        title="General"
        rows={[
          ['Encryption', enc],
          ['Wake Up Message', v.wakeUpMessage],
          ['Daily Limit Per Session', seconds(v.dailyLimitPerSession)],
          ['Daily Limit Per IP', seconds(v.dailyLimitPerIP)],
          ['Demo duration limit', seconds(v.dailyLimits?.Demo)],
          ['Idle timeout', seconds(v.idleTimeout)],
          ['Words Spoken Per Second', custom.words_per_sec],
          ['Transcription streaming', custom.transcriptionStreaming],
          ['Transcript download', custom.enable_transcript_download],
          ['Send Chat History', v.sendChatHistory],
          ['Handle STT Response', v.handleSttResponse],
          ['Realtime', v.realtime],
        ]}
      />
      <Section title="Interruptions" rows={Object.entries(pipeline.interrupt_handling ?? {})} />
      <Section title="Voice Activity Detection" rows={Object.entries(pipeline.vad_options ?? {})} />
    </Box>
  );
}
