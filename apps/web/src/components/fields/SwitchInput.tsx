import { useController, type FieldPath, type FieldValues } from 'react-hook-form';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import type { FieldProps } from './fieldProps';

/** On/off; the form value is a boolean and the test id is the checkbox input's. */
export function SwitchInput<T extends FieldValues, O, N extends FieldPath<T>>(props: FieldProps<T, O, N>) {
  const { control, name, label, testId, disabled, sx } = props;
  const { field } = useController({ control, name });
  return (
    <FormControlLabel
      label={label}
      disabled={disabled}
      sx={sx}
      control={
        <Switch
          name={field.name}
          inputRef={field.ref}
          onBlur={field.onBlur}
          checked={field.value === true}
          onChange={(e) => field.onChange(e.target.checked)}
          slotProps={{ input: { 'data-testid': testId } as object }}
        />
      }
    />
  );
}
