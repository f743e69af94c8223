// react-hook-form ↔ MUI switch with its label; the error (e.g. 'This field is required') below.
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import type { ReactNode } from 'react';
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';

export interface FormSwitchProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  label: ReactNode;
  disabled?: boolean;
  helperText?: ReactNode;
  onClick?: () => void;
  onFocus?: () => void;
}

export function FormSwitch<T extends FieldValues>({ control, name, label, disabled, helperText, onClick, onFocus }: FormSwitchProps<T>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <FormControl error={Boolean(fieldState.error)} onClick={onClick} onFocus={onFocus} sx={{ display: 'block' }}>
          <FormControlLabel
            control={
              <Switch
                checked={Boolean(field.value)}
                onChange={(e) => field.onChange(e.target.checked)}
                onBlur={field.onBlur}
                slotProps={{ input: { ref: field.ref } }}
                disabled={disabled}
              />
            }
            label={label}
          />
          {(fieldState.error?.message ?? helperText) && <FormHelperText>{fieldState.error?.message ?? helperText}</FormHelperText>}
        </FormControl>
      )}
    />
  );
}
