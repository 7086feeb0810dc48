import { useCallback, useState } from 'react';
import { toastError } from '../../components/toast';

/** Rows with a session call in flight (their buttons disabled), and the wrapper that runs such a call and toasts its failure. */
export function useBusyIds() {
  const [busy, setBusy] = useState<ReadonlySet<number>>(new Set());
  const withBusy = useCallback(async (id: number, call: () => Promise<unknown>): Promise<boolean> => {
    setBusy((s) => new Set(s).add(id));
    try {
      await call();
      return true;
    } catch (err) {
      toastError(err);
      return false;
    } finally {
      setBusy((s) => {
        const next = new Set(s);
        next.delete(id);
        return next;
      });
    }
  }, []);
  return { busy, withBusy };
}
