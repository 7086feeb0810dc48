import { useController, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { helperText, type FieldProps } from './fieldProps';

const HEX6 = /^#[0-9a-fA-F]{6}$/;

interface ColorInputProps<T extends FieldValues, O, N extends FieldPath<T>> extends FieldProps<T, O, N> {
  /** What the swatch shows while the typed text is not a colour yet. */
  fallback: string;
  pickerLabel?: string;
}

/** A #RRGGBB colour: typed, or picked from the swatch (which writes it in upper case). */
export function ColorInput<T extends FieldValues, O, N extends FieldPath<T>>(props: ColorInputProps<T, O, N>) {
  const { t } = useTranslation();
  const { control, name, label, testId, disabled, required, hint, fullWidth, sx, fallback } = props;
  const { field, fieldState } = useController({ control, name });
  const value = typeof field.value === 'string' ? field.value : '';
  return (
    <TextField
      name={field.name}
      inputRef={field.ref}
      onBlur={field.onBlur}
      value={value}
      onChange={(e) => field.onChange(e.target.value)}
      label={label}
      size="small"
      required={required}
      disabled={disabled}
      fullWidth={fullWidth}
      sx={sx}
      error={!!fieldState.error}
      helperText={helperText(fieldState.error, props.errorText, hint)}
      slotProps={{
        htmlInput: { 'data-testid': testId },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <Box
                component="input"
                type="color"
                aria-label={props.pickerLabel ?? t('ui.fields.pickColor')}
                disabled={disabled}
                value={HEX6.test(value) ? value : fallback}
                onChange={(e) => field.onChange(e.currentTarget.value.toUpperCase())}
                sx={{ width: 28, height: 28, p: 0, border: 'none', bgcolor: 'transparent', cursor: 'pointer' }}
              />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
