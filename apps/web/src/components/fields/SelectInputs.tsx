import type { ReactNode } from 'react';
import { useController, type FieldPath, type FieldValues, type UseControllerReturn } from 'react-hook-form';
import Checkbox from '@mui/material/Checkbox';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { helperText, type FieldOption, type FieldProps } from './fieldProps';

/** The option's own value for what the DOM gives back: MUI hands numbers over as they were, strings as strings. */
const optionValue = (options: readonly FieldOption[], raw: unknown) => options.find((o) => String(o.value) === String(raw))?.value;

/** What both selects hand their TextField: the field's binding, label, state and error text. */
function frameProps<T extends FieldValues, O, N extends FieldPath<T>>(props: FieldProps<T, O, N>, { field, fieldState }: UseControllerReturn<T, N>) {
  const { label, testId, disabled, required, hint, fullWidth = true, sx } = props;
  return {
    select: true,
    name: field.name,
    inputRef: field.ref,
    onBlur: field.onBlur,
    label,
    fullWidth,
    size: 'small' as const,
    required,
    disabled,
    sx,
    error: !!fieldState.error,
    helperText: helperText(fieldState.error, props.errorText, hint),
    'data-testid': testId,
  };
}

interface SelectInputProps<T extends FieldValues, O, N extends FieldPath<T>> extends FieldProps<T, O, N> {
  options: readonly FieldOption[];
  /** An entry for "none" at the top: choosing it sets the field to null. */
  noneLabel?: ReactNode;
  /** The test id of one option; `<testId>-<value>` by default. */
  optionTestId?: (value: FieldOption['value']) => string;
}

/** One choice among options; each option's test id is `<testId>-<value>`. */
export function SelectInput<T extends FieldValues, O, N extends FieldPath<T>>(props: SelectInputProps<T, O, N>) {
  const { control, name, testId, options, noneLabel, optionTestId } = props;
  const controller = useController({ control, name });
  const { field } = controller;
  const value: unknown = field.value;
  return (
    <TextField
      {...frameProps(props, controller)}
      value={value === null || value === undefined ? '' : String(value)}
      onChange={(e) => field.onChange(e.target.value === '' && noneLabel !== undefined ? null : optionValue(options, e.target.value))}
    >
      {noneLabel !== undefined && (
        <MenuItem value="">
          <em>{noneLabel}</em>
        </MenuItem>
      )}
      {options.map((o) => (
        <MenuItem key={String(o.value)} value={String(o.value)} data-testid={optionTestId ? optionTestId(o.value) : testId && `${testId}-${o.value}`}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

interface MultiSelectInputProps<T extends FieldValues, O, N extends FieldPath<T>> extends FieldProps<T, O, N> {
  options: readonly FieldOption[];
  /** How the chosen values show in the closed field (chips, names…). */
  renderSelected?: (values: FieldOption['value'][]) => ReactNode;
  /** Something drawn before an option's label (a colour dot…). */
  optionAdornment?: (option: FieldOption) => ReactNode;
  /** The test id of one option; `<testId>-<value>` by default. */
  optionTestId?: (value: FieldOption['value']) => string;
}

/** Several choices, each with a checkbox; the form value is the array of chosen values. */
export function MultiSelectInput<T extends FieldValues, O, N extends FieldPath<T>>(props: MultiSelectInputProps<T, O, N>) {
  const { control, name, testId, options } = props;
  const controller = useController({ control, name });
  const { field } = controller;
  const selected: FieldOption['value'][] = Array.isArray(field.value) ? field.value : [];
  return (
    <TextField
      {...frameProps(props, controller)}
      value={selected}
      onChange={(e) => {
        const raw: unknown = e.target.value;
        field.onChange(Array.isArray(raw) ? raw.map((v) => optionValue(options, v)).filter((v) => v !== undefined) : []);
      }}
      slotProps={{
        select: {
          multiple: true,
          renderValue: props.renderSelected ? (values) => props.renderSelected?.(Array.isArray(values) ? values : []) : undefined,
        },
      }}
    >
      {options.map((o) => (
        <MenuItem key={String(o.value)} value={o.value as string | number} data-testid={props.optionTestId ? props.optionTestId(o.value) : testId && `${testId}-${o.value}`}>
          <Checkbox size="small" checked={selected.includes(o.value)} />
          {props.optionAdornment?.(o)}
          <ListItemText primary={o.label} />
        </MenuItem>
      ))}
    </TextField>
  );
}
