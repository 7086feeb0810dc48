import { useState, type ReactNode } from 'react';
import { useController, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { helperText, type FieldProps } from './fieldProps';

interface TextInputProps<T extends FieldValues, O, N extends FieldPath<T>> extends FieldProps<T, O, N> {
  multiline?: boolean;
  minRows?: number;
  /** Rewrites what is typed before it reaches the form (e.g. lowercases an e-mail). */
  transform?: (value: string) => string;
  type?: 'text' | 'email' | 'password' | 'number' | 'time' | 'date' | 'datetime-local' | 'tel' | 'url';
  /** Attributes of the <input> itself (min, step, maxLength…). */
  inputProps?: Record<string, unknown>;
  endAdornment?: ReactNode;
}

/**
 * A text field bound to the form. Empty and null show as ''; what is typed
 * reaches the form as a string, and the schema coerces numbers and times.
 */
export function TextInput<T extends FieldValues, O, N extends FieldPath<T>>(props: TextInputProps<T, O, N>) {
  const { control, name, label, testId, disabled, required, autoFocus, hint, fullWidth = true, sx } = props;
  const { field, fieldState } = useController({ control, name });
  const value: unknown = field.value;
  return (
    <TextField
      name={field.name}
      inputRef={field.ref}
      onBlur={field.onBlur}
      value={value === null || value === undefined ? '' : String(value)}
      onChange={(e) => field.onChange(props.transform ? props.transform(e.target.value) : e.target.value)}
      type={props.type}
      label={label}
      fullWidth={fullWidth}
      size="small"
      multiline={props.multiline}
      minRows={props.multiline ? (props.minRows ?? 3) : undefined}
      required={required}
      autoFocus={autoFocus}
      disabled={disabled}
      sx={sx}
      error={!!fieldState.error}
      helperText={helperText(fieldState.error, props.errorText, hint)}
      slotProps={{
        inputLabel: props.type === 'time' || props.type === 'date' || props.type === 'datetime-local' ? { shrink: true } : undefined,
        htmlInput: { ...props.inputProps, 'data-testid': testId },
        input: props.endAdornment ? { endAdornment: props.endAdornment } : undefined,
      }}
    />
  );
}

/** A number typed as text: the schema turns it into a number ('' is no value). */
export function NumberInput<T extends FieldValues, O, N extends FieldPath<T>>(props: FieldProps<T, O, N> & { min?: number; max?: number }) {
  return <TextInput {...props} type="number" inputProps={{ min: props.min, max: props.max }} />;
}

/** HH:mm, in steps of `stepSeconds`. */
export function TimeInput<T extends FieldValues, O, N extends FieldPath<T>>(props: FieldProps<T, O, N> & { stepSeconds?: number }) {
  return <TextInput {...props} type="time" inputProps={{ step: props.stepSeconds }} />;
}

/** A password with a button that shows what was typed. */
export function PasswordInput<T extends FieldValues, O, N extends FieldPath<T>>(props: FieldProps<T, O, N> & { autoComplete?: string }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <TextInput
      {...props}
      type={shown ? 'text' : 'password'}
      inputProps={{ autoComplete: props.autoComplete ?? 'new-password' }}
      endAdornment={
        <InputAdornment position="end">
          <IconButton size="small" edge="end" aria-label={t(shown ? 'ui.fields.hidePassword' : 'ui.fields.showPassword')} onClick={() => setShown((s) => !s)}>
            {shown ? <VisibilityOff fontSize="small" /> : <Visibility fontSize="small" />}
          </IconButton>
        </InputAdornment>
      }
    />
  );
}
