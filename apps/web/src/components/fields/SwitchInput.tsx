import { useController, type FieldPath, type FieldValues } from 'react-hook-form';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import type { FieldProps } from './fieldProps';

type SwitchValue = boolean | string | number;

/** On/off; the form value is a boolean, or the pair given in `values` (e.g. 'enabled' / 'disabled', 1 / 0). The test id is the checkbox input's. */
export function SwitchInput<T extends FieldValues, O, N extends FieldPath<T>>(props: FieldProps<T, O, N> & { values?: [on: SwitchValue, off: SwitchValue] }) {
  const { control, name, label, testId, disabled, sx } = props;
  const [on, off] = props.values ?? [true, false];
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
          checked={field.value === on}
          onChange={(e) => field.onChange(e.target.checked ? on : off)}
          slotProps={{ input: { 'data-testid': testId } as object }}
        />
      }
    />
  );
}
