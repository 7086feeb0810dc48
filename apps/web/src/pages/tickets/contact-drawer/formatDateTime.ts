import { formatDate } from '../../../components/format';

/** dd/MM/yyyy HH:mm in local time; '' for a missing or unreadable date. */
export function formatDateTime(value: string | null | undefined): string {
  const date = formatDate(value);
  if (!date || !value) return '';
  const d = new Date(value);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
