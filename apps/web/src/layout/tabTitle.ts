const CIRCLED = ['①', '②', '③', '④', '⑤', '⑥', '⑦', '⑧', '⑨', '⑩', '⑪', '⑫', '⑬', '⑭', '⑮', '⑯', '⑰', '⑱', '⑲', '⑳'];

/** Spec 1 §2: the unread count before the app name, circled up to 20, else in parentheses. */
export function formatTabTitle(unread: number, appName: string): string {
  if (!Number.isFinite(unread) || unread <= 0) return appName;
  const n = Math.floor(unread);
  const badge = n <= CIRCLED.length ? CIRCLED[n - 1] : `(${n})`;
  return `${badge} ${appName}`;
}
