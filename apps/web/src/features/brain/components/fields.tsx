// Brain form fields bound to the inner Brain form, each opening its information panel.
import { useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { useController, useFormContext, type FieldPath } from 'react-hook-form';
import { JSON_KEY_MAX_CHARS } from '@parla/shared/brain-limits';
import { isMaskedSecret, type BrainForm } from '@parla/shared/schemas/brain-forms';
import { FormSelect, type SelectOption } from '../../../components/form/form-select';
import { FormTextField } from '../../../components/form/form-text-field';
import { useFieldInfo, type FieldInfo } from '../../../components/info-panel';

type Name = FieldPath<BrainForm>;

export function BrainText({ name, info, ...rest }: { name: Name; info: FieldInfo } & Omit<TextFieldProps, 'name'>) {
  const { control } = useFormContext<BrainForm>();
  const handlers = useFieldInfo(info);
  return <FormTextField control={control} name={name} margin="dense" {...handlers} {...rest} />;
}

export function BrainSelect({
  name,
  info,
  options,
  loading,
  onValueChange,
  ...rest
}: {
  name: Name;
  info: FieldInfo;
  options: readonly SelectOption[];
  loading?: boolean;
  onValueChange?: (v: string | number) => void;
} & Omit<TextFieldProps, 'name' | 'select'>) {
  const { control } = useFormContext<BrainForm>();
  const handlers = useFieldInfo(info);
  return (
    <FormSelect
      control={control}
      name={name}
      options={options}
      loading={loading}
      onValueChange={onValueChange}
      margin="dense"
      {...handlers}
      {...rest}
    />
  );
}

/** A key: hidden while typed, a stored one shown masked (sending it back keeps it). */
export function SecretField({ name, info, label, ...rest }: { name: Name; info: FieldInfo; label: string } & Omit<TextFieldProps, 'name'>) {
  const [shown, setShown] = useState(false);
  return (
    <BrainText
      name={name}
      info={info}
      label={label}
      type={shown ? 'text' : 'password'}
      autoComplete="off"
      slotProps={{
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                aria-label={shown ? `Hide ${label}` : `Show ${label}`}
                onClick={() => setShown((s) => !s)}
                edge="end"
                size="small"
              >
                {shown ? <VisibilityOff fontSize="small" /> : <Visibility fontSize="small" />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
      {...rest}
    />
  );
}

/** A JSON key file: its text goes into `name`, its file name into `fileName`. */
export function JsonKeyField({ name, fileName, info, label }: { name: Name; fileName: Name; info: FieldInfo; label: string }) {
  const { control, setValue } = useFormContext<BrainForm>();
  const key = useController({ control, name });
  const file = useController({ control, name: fileName });
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const handlers = useFieldInfo(info);
  const value = String(key.field.value ?? '');
  const stored = isMaskedSecret(value);

  const read = async (f: File | undefined) => {
    if (!f) return;
    setProblem(null);
    if (f.size > JSON_KEY_MAX_CHARS) return setProblem('The key file is too large for a JSON key.');
    const text = await f.text();
    try {
      JSON.parse(text);
    } catch {
      return setProblem('The file is not valid JSON.');
    }
    setValue(name, text as never, { shouldDirty: true });
    setValue(fileName, f.name as never, { shouldDirty: true });
    key.field.onBlur();
  };

  return (
    <Box sx={{ my: 1 }} {...handlers}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap', mt: 0.5 }}>
        <Button variant="outlined" size="small" startIcon={<UploadFileIcon />} onClick={() => input.current?.click()}>
          {value ? 'Replace JSON key' : 'Upload JSON key'}
        </Button>
        <Typography variant="body2">
          {file.field.value ? String(file.field.value) : stored ? 'A key is stored' : 'No file chosen'}
          {stored && file.field.value ? ' (stored)' : ''}
        </Typography>
        <input
          ref={input}
          type="file"
          accept=".json,application/json"
          hidden
          aria-label={label}
          onChange={(e) => void read(e.target.files?.[0])}
        />
      </Box>
      {(problem ?? key.fieldState.error?.message) && <FormHelperText error>{problem ?? key.fieldState.error?.message}</FormHelperText>}
    </Box>
  );
}

/** The Base URL select while the custom choice is on: its value is the choice, not the URL. */
export function BaseUrlChoice({
  value,
  options,
  onChange,
  info,
}: {
  value: string;
  options: readonly SelectOption[];
  onChange: (v: string) => void;
  info: FieldInfo;
}) {
  const handlers = useFieldInfo(info);
  return (
    <TextField select label="Base URL" value={value} onChange={(e) => onChange(e.target.value)} margin="dense" {...handlers}>
      {options.map((o) => (
        <MenuItem key={String(o.value)} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The custom base URL, typed: `onValueChange` applies the transition (model and stored key go). */
export function CustomUrlField({
  info,
  onValueChange,
  helperText,
}: {
  info: FieldInfo;
  onValueChange: (v: string) => void;
  helperText?: string;
}) {
  const { control, trigger } = useFormContext<BrainForm>();
  const { field, fieldState } = useController({ control, name: 'llmDetails.url' });
  const handlers = useFieldInfo(info);
  // Checked when the field is left, and again while typing once it shows an error.
  const shown = Boolean(fieldState.error);
  return (
    <TextField
      label="Custom base URL"
      name={field.name}
      inputRef={field.ref}
      value={String(field.value ?? '')}
      onChange={(e) => {
        onValueChange(e.target.value);
        if (shown) void trigger('llmDetails.url');
      }}
      onBlur={() => {
        field.onBlur();
        void trigger('llmDetails.url');
      }}
      placeholder="https://llm.example.com/v1"
      required
      autoComplete="off"
      slotProps={{ htmlInput: { inputMode: 'url', spellCheck: false } }}
      error={Boolean(fieldState.error)}
      helperText={fieldState.error?.message ?? helperText}
      margin="dense"
      {...handlers}
    />
  );
}
