import { useEffect, useState } from 'react';

/** Spec 2 §5: user search starts from 3 characters. */
export const USER_SEARCH_MIN = 3;

/** The value once it stopped changing for `ms` (the 500 ms search debounce of spec 2 §9). */
export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const id = window.setTimeout(() => setDebounced(value), ms);
    return () => window.clearTimeout(id);
  }, [value, ms]);
  return debounced;
}
