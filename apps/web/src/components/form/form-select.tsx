// react-hook-form ↔ MUI select (spec 3 §2): 'Loading...' while its options load and
// 'No options available' when there are none; the field's error shows under it.
import MenuItem from '@mui/material/MenuItem';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';

export const SELECT_LOADING = 'Loading...';
export const SELECT_EMPTY = 'No options available';

export interface SelectOption {
  value: string | number;
  label: string;
  disabled?: boolean;
}

export type FormSelectProps<T extends FieldValues> = Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'error' | 'select'> & {
  control: Control<T>;
  name: FieldPath<T>;
  options: readonly SelectOption[];
  loading?: boolean;
  /** Runs after the form value changed (transitions of spec 3 §4). */
  onValueChange?: (value: string | number) => void;
};

export function FormSelect<T extends FieldValues>({
  control,
  name,
  options,
  loading,
  onValueChange,
  helperText,
  ...rest
}: FormSelectProps<T>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const value = field.value ?? '';
        // A saved value that is not (yet) in the list stays visible instead of blanking.
        const known = value === '' || options.some((o) => o.value === value);
        return (
          <TextField
            {...rest}
            select
            name={field.name}
            inputRef={field.ref}
            onBlur={field.onBlur}
            value={value}
            onChange={(e) => {
              const raw = e.target.value;
              const opt = options.find((o) => String(o.value) === String(raw));
              const next = opt ? opt.value : raw;
              field.onChange(next);
              onValueChange?.(next);
            }}
            error={Boolean(fieldState.error)}
            helperText={fieldState.error?.message ?? helperText}
          >
            {loading && (
              <MenuItem value="" disabled>
                {SELECT_LOADING}
              </MenuItem>
            )}
            {!loading && options.length === 0 && (
              <MenuItem value="" disabled>
                {SELECT_EMPTY}
              </MenuItem>
            )}
            {!known && <MenuItem value={value}>{String(value)}</MenuItem>}
            {options.map((o) => (
              <MenuItem key={String(o.value)} value={o.value} disabled={o.disabled}>
                {o.label}
              </MenuItem>
            ))}
          </TextField>
        );
      }}
    />
  );
}
