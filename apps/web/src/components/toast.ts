import { APP_TOAST_MS } from '@balcao/contracts';
import i18n from '../i18n';
import { resolveErrorMessage } from './errorMessage';

export type ToastKind = 'success' | 'error' | 'warning' | 'info';
export interface ToastItem {
  id: number;
  kind: ToastKind;
  text: string;
}

type Listener = (items: ToastItem[]) => void;
let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<Listener>();

function emit(): void {
  for (const l of listeners) l(items);
}

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  listener(items);
  return () => listeners.delete(listener);
}

export function dismissToast(id: number): void {
  items = items.filter((i) => i.id !== id);
  emit();
}

function show(kind: ToastKind, text: string, ms = APP_TOAST_MS): void {
  // The same text twice in a row (e.g. several failing queries) shows once.
  if (items.some((i) => i.text === text && i.kind === kind)) return;
  const id = nextId++;
  items = [...items.slice(-3), { id, kind, text }];
  emit();
  setTimeout(() => dismissToast(id), ms);
}

/** App toasts: 3 s, top-centre (spec 1 §8). */
export const toast = {
  success: (text: string) => show('success', text),
  error: (text: string) => show('error', text),
  warning: (text: string) => show('warning', text),
  info: (text: string) => show('info', text),
};

/** A failed call's message in the current language (for a toast, or inline where a toast would be lost). */
export function errorText(err: unknown): string {
  return resolveErrorMessage(err, { exists: (k) => i18n.exists(k), t: (k) => i18n.t(k) });
}

/** The one way to report a failed call to the user. */
export function toastError(err: unknown): void {
  toast.error(errorText(err));
}
