/** yyyy-MM-dd of a local date. */
export function isoDay(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The dashboard's default range: the first day of this month up to today (spec 2 §2). */
export function monthToDate(now = new Date()): { from: string; to: string } {
  return { from: isoDay(new Date(now.getFullYear(), now.getMonth(), 1)), to: isoDay(now) };
}
