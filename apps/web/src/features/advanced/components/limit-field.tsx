// A limit in seconds with its Unlimited checkbox (spec 3 §4): ticking sets -1, unticking puts
// back the value before (600 when there was none).
import { useRef } from 'react';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import { useController, type Control } from 'react-hook-form';
import { UNLIMITED, UNLIMITED_RESTORE_DEFAULT_S } from '@parla/shared/brain-limits';
import type { AdvancedForm, DailyLimitField } from '@parla/shared/schemas/advanced';
import { toNumber } from '@parla/shared/schemas/brain-forms';
import { useFieldInfo, type FieldInfo } from '../../../components/info-panel';

export function LimitField({
  control,
  name,
  label,
  info,
}: {
  control: Control<AdvancedForm>;
  name: DailyLimitField;
  label: string;
  info: FieldInfo;
}) {
  const { field, fieldState } = useController({ control, name });
  const handlers = useFieldInfo(info);
  const unlimited = toNumber(field.value) === UNLIMITED;
  const previous = useRef<string | number | null>(null);
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
      <TextField
        {...handlers}
        label={`${label} (seconds)`}
        margin="dense"
        inputMode="numeric"
        name={field.name}
        inputRef={field.ref}
        value={unlimited ? '' : (field.value ?? '')}
        placeholder={unlimited ? 'Unlimited' : undefined}
        disabled={unlimited}
        slotProps={unlimited ? { inputLabel: { shrink: true } } : undefined}
        onChange={(e) => field.onChange(e.target.value)}
        onBlur={field.onBlur}
        error={Boolean(fieldState.error)}
        helperText={fieldState.error?.message}
      />
      <FormControlLabel
        sx={{ mt: 2, whiteSpace: 'nowrap' }}
        control={
          <Checkbox
            checked={unlimited}
            slotProps={{ input: { 'aria-label': `${label} unlimited` } }}
            onChange={(e) => {
              if (e.target.checked) {
                previous.current = field.value ?? null;
                field.onChange(UNLIMITED);
              } else {
                const back = previous.current;
                field.onChange(back !== null && back !== '' && toNumber(back) !== UNLIMITED ? back : UNLIMITED_RESTORE_DEFAULT_S);
              }
            }}
          />
        }
        label="Unlimited"
      />
    </Box>
  );
}
