// Turn-taking presets above the Interruptions and Voice Activity Detection sections (issue 39):
// one click sets the numbers together; the numbers below stay editable, and once they match no
// preset the choice reads "Custom".
import Box from '@mui/material/Box';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { FieldPath, UseFormSetValue } from 'react-hook-form';
import type { AdvancedForm } from '@parla/shared/schemas/advanced';
import { presetMatching, TURN_TAKING_PRESETS, type TurnTakingPresetId } from '@parla/shared/turn-taking-presets';

export interface TurnTakingPresetsProps {
  values: AdvancedForm;
  speechToSpeech: boolean;
  setValue: UseFormSetValue<AdvancedForm>;
}

export function TurnTakingPresets({ values, speechToSpeech, setValue }: TurnTakingPresetsProps) {
  const current = presetMatching(values as unknown as Parameters<typeof presetMatching>[0], speechToSpeech);
  const apply = (id: TurnTakingPresetId) => {
    const p = TURN_TAKING_PRESETS.find((x) => x.id === id)!;
    const set = (name: string, v: number | boolean) =>
      setValue(name as FieldPath<AdvancedForm>, v as never, { shouldDirty: true, shouldValidate: true });
    for (const [k, v] of Object.entries(p.interrupt_handling)) set(`interrupt_handling.${k}`, v);
    for (const [k, v] of Object.entries(speechToSpeech ? p.realtimeVad : p.vad)) set(`vad_options.${k}`, v);
  };
  const described = TURN_TAKING_PRESETS.find((p) => p.id === current);
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={current}
        onChange={(_e, id: TurnTakingPresetId | null) => id && apply(id)}
        aria-label="Turn-taking preset"
      >
        {TURN_TAKING_PRESETS.map((p) => (
          <ToggleButton key={p.id} value={p.id}>
            {p.label}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <Typography variant="body2" color="text.secondary" role="status">
        {described ? described.description : 'Custom: the numbers below match no preset. Pick one to set them all together.'}
      </Typography>
    </Box>
  );
}
