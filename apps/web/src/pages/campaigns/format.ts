/** A stored instant as the tables show it: local date and time. */
export const dateTime = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
