import { useRef } from 'react';
import { useController, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import { helperText, type FieldProps } from './fieldProps';

/** One file; the form value is the chosen File (or null), and the test id is the hidden <input type="file">'s. */
export function FileInput<T extends FieldValues, O, N extends FieldPath<T>>(props: FieldProps<T, O, N> & { accept?: string }) {
  const { t } = useTranslation();
  const { control, name, label, testId, disabled, hint, sx } = props;
  const { field, fieldState } = useController({ control, name });
  const input = useRef<HTMLInputElement>(null);
  const file: unknown = field.value;
  const shown = helperText(fieldState.error, props.errorText, hint);
  return (
    <Stack spacing={0.5} sx={sx}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Button variant="outlined" size="small" startIcon={<AttachFileIcon />} disabled={disabled} onClick={() => input.current?.click()}>
          {label}
        </Button>
        <Typography variant="body2" color="text.secondary" noWrap>
          {file instanceof File ? file.name : t('ui.fields.chooseFile')}
        </Typography>
      </Stack>
      <input
        ref={input}
        type="file"
        hidden
        name={field.name}
        accept={props.accept}
        disabled={disabled}
        data-testid={testId}
        onChange={(e) => {
          field.onChange(e.target.files?.[0] ?? null);
          e.target.value = '';
        }}
      />
      {shown && <FormHelperText error={!!fieldState.error}>{shown}</FormHelperText>}
    </Stack>
  );
}
