// Brain → FOUNDATIONS (spec 2 §2, §4): the Mode radio with its 'currently set' marker and the
// Avatar Engine, Speech to Text and Text to Speech sections. Switching mode puts the saved
// stt/tts/llm details back, clears the model when the mode differs from the saved one, and picks
// the mode's first engine when the current one is not offered.
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import type { SetupMode } from '@parla/shared/enums';
import { AVATAR_MESSAGES, type CustomData, type PipelineConfig } from '@parla/shared/schemas/avatar';
import { useFieldInfo } from '../../../../components/info-panel';
import type { EditorValues } from '../../lib/editor-values';
import { useEditor } from './editor-context';
import { engineLabel, enginesFor, MODES } from './brain-modes';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700, mb: 1 }}>{title}</Typography>
      {children}
    </Paper>
  );
}

function Summary({ rows }: { rows: [string, unknown][] }) {
  const shown = rows.filter(([, v]) => v !== undefined && v !== null && v !== '');
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}>
      {shown.map(([k, v]) => (
        <Box key={k} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">{k}</Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0 }}>{String(v)}</Typography>
        </Box>
      ))}
    </Box>
  );
}

export function BrainFoundations() {
  const { saved } = useEditor();
  const { setValue, getValues } = useFormContext<EditorValues>();
  const mode = useWatch<EditorValues, 'setupMode'>({ name: 'setupMode' }) ?? 'Simple';
  const engine = useWatch<EditorValues, 'nlpEngine'>({ name: 'nlpEngine' }) ?? 0;
  const custom = useWatch<EditorValues, 'customData'>({ name: 'customData' }) as CustomData | undefined;
  const pipeline = (custom?.agent_pipeline_config ?? {}) as PipelineConfig;
  const modeInfo = useFieldInfo({ title: 'Mode', description: 'How the avatar listens, thinks and speaks.', possibleValues: MODES.map((m) => `${m.label}: ${m.meaning}`) });
  const engineInfo = useFieldInfo({ title: 'Avatar Engine', description: 'The conversational back end that writes the avatar’s replies.', possibleValues: enginesFor(mode).map(engineLabel) });

  const switchMode = (next: SetupMode) => {
    const savedPipeline = (saved?.customData.agent_pipeline_config ?? {}) as PipelineConfig;
    const current = (getValues('customData') ?? {}) as CustomData;
    const restored: PipelineConfig = { ...(current.agent_pipeline_config ?? {}), stt: savedPipeline.stt, tts: savedPipeline.tts, llm: savedPipeline.llm ? { ...savedPipeline.llm } : undefined };
    if (next !== saved?.setupMode && restored.llm) delete restored.llm.model;
    setValue('customData', { ...current, agent_pipeline_config: restored } as never, { shouldDirty: true });
    setValue('setupMode', next, { shouldDirty: true });
    const offered = enginesFor(next);
    if (!offered.includes(getValues('nlpEngine') as never)) setValue('nlpEngine', offered[0], { shouldDirty: true });
  };

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <FormControl {...modeInfo}>
        <FormLabel id="brain-mode-label">Mode</FormLabel>
        <RadioGroup row aria-labelledby="brain-mode-label" value={mode} onChange={(_e, v) => switchMode(v as SetupMode)}>
          {MODES.map((m) => (
            <FormControlLabel
              key={m.value}
              value={m.value}
              control={<Radio />}
              label={
                <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}>
                  {m.label}
                  {saved?.setupMode === m.value && <Chip size="small" label="currently set" color="success" variant="outlined" />}
                </Box>
              }
            />
          ))}
        </RadioGroup>
      </FormControl>
      <Section title="Avatar Engine">
        <TextField
          select
          label="Avatar Engine"
          value={engine}
          margin="none"
          sx={{ maxWidth: 360 }}
          onChange={(e) => setValue('nlpEngine', Number(e.target.value), { shouldDirty: true })}
          helperText={engine === undefined ? AVATAR_MESSAGES.engineRequired : undefined}
          {...engineInfo}
        >
          {enginesFor(mode).map((e) => (
            <MenuItem key={e} value={e}>{engineLabel(e)}</MenuItem>
          ))}
        </TextField>
      </Section>
      <Section title="Speech to Text">
        <Summary rows={[['Provider', pipeline.stt?.provider ?? 'default'], ['Languages', pipeline.stt?.languages], ['Model', pipeline.stt?.model], ['Region', pipeline.stt?.region]]} />
      </Section>
      <Section title="Text to Speech">
        <Summary rows={[['Provider', pipeline.tts?.provider ?? 'default'], ['Voice', pipeline.tts?.voice_id], ['Model', pipeline.tts?.model], ['Speed', pipeline.tts?.speed]]} />
      </Section>
    </Box>
  );
}
