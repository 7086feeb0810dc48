import { ApiError } from '../api/http';

export const GENERIC_ERROR_MESSAGE = 'An error occurred!';

export interface Translator {
  exists: (key: string) => boolean;
  t: (key: string) => string;
}

function errorField(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return null;
  const { error } = data as { error?: unknown };
  return typeof error === 'string' && error ? error : null;
}

/**
 * Spec 1 §8: a known code shows its translation, else the raw text; a plain
 * string is shown as is; anything else reads 'An error occurred!'.
 */
export function resolveErrorMessage(err: unknown, tr: Translator): string {
  if (typeof err === 'string') return err;
  const raw = err instanceof ApiError ? errorField(err.data) : errorField(err);
  if (raw) {
    const key = `backendErrors.${raw}`;
    return tr.exists(key) ? tr.t(key) : raw;
  }
  if (err instanceof ApiError && typeof err.data === 'string' && err.data) return err.data;
  return GENERIC_ERROR_MESSAGE;
}
