import { useCallback, useState } from 'react';
import { readStorage, writeStorage } from '../../../api/storage';

/** localStorage keys of the conversation's remembered choices (spec 2 §9). */
export const CONVERSATION_STORAGE = {
  signature: 'signOption',
  privateNote: 'privateMessageOption',
} as const;

/** A boolean remembered in this browser. */
export function useStoredFlag(key: string, initial = false): [boolean, (next: boolean) => void] {
  const [value, setValue] = useState<boolean>(() => {
    const stored = readStorage(key);
    return stored === null ? initial : stored === 'true';
  });
  const set = useCallback(
    (next: boolean) => {
      writeStorage(key, String(next));
      setValue(next);
    },
    [key],
  );
  return [value, set];
}
