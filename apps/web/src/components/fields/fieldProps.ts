import type { ReactNode } from 'react';
import type { Control, FieldError, FieldPath, FieldValues } from 'react-hook-form';
import type { SxProps, Theme } from '@mui/material/styles';
import { fieldErrorText } from '../form';

/**
 * What every field takes: the form's `control` (from `useForm` with the zod
 * resolver of a contracts schema), the field's name, its label and the
 * `data-testid` the browser tests find it by. Errors come from the schema.
 */
export interface FieldProps<T extends FieldValues, O, N extends FieldPath<T>> {
  control: Control<T, unknown, O>;
  name: N;
  label: ReactNode;
  testId?: string;
  disabled?: boolean;
  required?: boolean;
  autoFocus?: boolean;
  /** Shown under the field while it has no error. */
  hint?: ReactNode;
  /** The text of an error, when the form words its errors itself (default: the schema's message). */
  errorText?: (error: FieldError) => string | undefined;
  fullWidth?: boolean;
  sx?: SxProps<Theme>;
}

/** A choice of a select: numbers and booleans stay so in the form value. */
export interface FieldOption<V extends string | number | boolean = string | number | boolean> {
  value: V;
  label: ReactNode;
}

/** What shows under a field: its error (worded by the form, else the schema's message), else its hint. */
export function helperText(error: FieldError | undefined, errorText: ((error: FieldError) => string | undefined) | undefined, hint: ReactNode): ReactNode {
  if (!error) return hint;
  return errorText?.(error) ?? fieldErrorText(error);
}
