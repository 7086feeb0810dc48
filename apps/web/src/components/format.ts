const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** dd/MM/yyyy; a date-only value is shown as written (no time-zone shift). */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const m = DATE_ONLY.exec(value);
  if (m) return `${m[3]}/${m[2]}/${m[1]}`;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
}

const brl = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A price in reais in pt-BR format with two decimals (without the R$ sign). */
export function formatAmount(value: string | number | null | undefined): string {
  const n = typeof value === 'number' ? value : Number(String(value ?? '').replace(',', '.'));
  return brl.format(Number.isFinite(n) ? n : 0);
}

/** dd/MM/yyyy HH:mm in local time; '' for a missing or unreadable date. */
export function formatDateTime(value: string | null | undefined): string {
  const date = formatDate(value);
  if (!date || !value) return '';
  const d = new Date(value);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
