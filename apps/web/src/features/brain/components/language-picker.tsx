// Additional speech-to-text languages: a multi-select of at most 10, never the primary one.
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useController, useFormContext } from 'react-hook-form';
import { STT_ADDITIONAL_LANGUAGES_MAX } from '@parla/shared/brain-limits';
import type { BrainForm } from '@parla/shared/schemas/brain-forms';
import type { SelectOption } from '../../../components/form/form-select';
import { useFieldInfo } from '../../../components/info-panel';
import { BRAIN_INFO } from './brain-field-info';

export function AdditionalLanguages({
  options,
  primary,
  loading,
}: {
  options: readonly SelectOption[];
  primary: string;
  loading?: boolean;
}) {
  const { control } = useFormContext<BrainForm>();
  const { field, fieldState } = useController({ control, name: 'sttDetails.sttAdditionalLanguages' });
  const info = useFieldInfo(BRAIN_INFO.sttAdditional);
  const value: string[] = field.value ?? [];
  const labelOf = (code: string) => options.find((o) => o.value === code)?.label ?? code;
  const full = value.length >= STT_ADDITIONAL_LANGUAGES_MAX;
  return (
    <Autocomplete
      multiple
      filterSelectedOptions
      loading={loading}
      options={options.map((o) => String(o.value)).filter((c) => c !== primary)}
      value={value}
      getOptionLabel={labelOf}
      getOptionDisabled={() => full}
      onChange={(_e, next) => field.onChange(next)}
      onBlur={field.onBlur}
      renderInput={(params) => (
        <TextField
          {...params}
          {...info}
          label="Additional languages"
          margin="dense"
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message ?? `Up to ${STT_ADDITIONAL_LANGUAGES_MAX} more languages.`}
        />
      )}
    />
  );
}
