import { useEffect, useState } from 'react';
import type { FieldError } from 'react-hook-form';
import { MSG } from '@balcao/contracts';
import { ApiError } from '../api/http';
import { toast, toastError } from './toast';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const SPEC_MESSAGES: readonly string[] = Object.values(MSG);

/**
 * The text shown under a field: the contracts' own messages ('Too Short!',
 * 'Too Long!', 'Required', 'Invalid email') as they are (spec 1 §5, 3 §5);
 * zod's generic issues mapped onto the same words.
 */
export function fieldErrorText(error: FieldError | undefined): string | undefined {
  if (!error) return undefined;
  const message = error.message ?? '';
  if (SPEC_MESSAGES.includes(message)) return message;
  if (error.type === 'invalid_type') return MSG.required;
  if (error.type === 'too_small') return MSG.tooShort;
  if (error.type === 'too_big') return MSG.tooLong;
  return message || MSG.required;
}

/** The value, once it has stopped changing for `ms`. */
export function useDebouncedValue<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** Within `threshold` px of the bottom of a scrolled element. */
export function nearBottom(el: HTMLElement, threshold: number): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= threshold;
}

/**
 * A failed save: a specific server code shows its own translation (e.g. a
 * name already taken); anything generic shows the form's failure text
 * (spec 1 §8 "Company save failure", plan and help alike).
 */
export function toastSaveError(err: unknown, fallback: string): void {
  if (err instanceof ApiError && err.code && err.code !== 'ERR_VALIDATION' && err.code !== 'ERR_INTERNAL') toastError(err);
  else toast.error(fallback);
}
