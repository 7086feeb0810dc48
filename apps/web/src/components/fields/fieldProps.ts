import type { ReactNode } from 'react';
import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import type { SxProps, Theme } from '@mui/material/styles';

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
  fullWidth?: boolean;
  sx?: SxProps<Theme>;
}

/** A choice of a select: numbers and booleans stay so in the form value. */
export interface FieldOption<V extends string | number | boolean = string | number | boolean> {
  value: V;
  label: ReactNode;
}
