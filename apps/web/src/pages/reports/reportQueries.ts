import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { REPORT_FILE_NAME, type Contact, type ReportResponse, type TicketStatus } from '@balcao/contracts';
import { request } from '../../api/http';
import { getToken } from '../../api/storage';
import { apiUrl } from '../../config';

/** The report's filters as the form holds them (queue `0` = without queue). */
export interface ReportFilterValues {
  contact: { id: number | null; text: string } | null;
  whatsappIds: number[];
  statuses: TicketStatus[];
  userIds: number[];
  queueIds: number[];
  dateFrom: string;
  dateTo: string;
  onlyRated: boolean;
}

/** The filters as the report and the export read them (spec 2 §7: JSON arrays). */
export function reportParams(f: ReportFilterValues): URLSearchParams {
  const p = new URLSearchParams();
  if (f.contact?.id) p.set('contactId', String(f.contact.id));
  else if (f.contact?.text) p.set('searchParam', f.contact.text);
  const list = (key: string, values: unknown[]) => values.length > 0 && p.set(key, JSON.stringify(values));
  list('whatsappId', f.whatsappIds);
  list('users', f.userIds);
  list('queueIds', f.queueIds);
  list('status', f.statuses);
  if (f.dateFrom) p.set('dateFrom', f.dateFrom);
  if (f.dateTo) p.set('dateTo', f.dateTo);
  p.set('onlyRated', String(f.onlyRated));
  return p;
}

/** One page of the report; nothing until a filter is applied. */
export function useReport(filter: ReportFilterValues | null, page: number, pageSize: number) {
  return useQuery({
    queryKey: ['reports', filter, page, pageSize],
    queryFn: ({ signal }) => {
      const p = reportParams(filter!);
      p.set('page', String(page));
      p.set('pageSize', String(pageSize));
      return request<ReportResponse>(`/ticketreport/reports?${p.toString()}`, { signal });
    },
    enabled: filter !== null,
    placeholderData: keepPreviousData,
  });
}

/** Contact searches start at this many characters (spec 2 §9). */
export const CONTACT_SEARCH_MIN = 3;

/** The contact autocomplete's options (`GET /contacts`), from the third character typed. */
export function useContactOptions(search: string) {
  return useQuery({
    queryKey: ['reports', 'contacts', search],
    queryFn: ({ signal }) => request<{ contacts: Contact[] }>(`/contacts?searchParam=${encodeURIComponent(search)}&pageNumber=1`, { signal }),
    enabled: search.length >= CONTACT_SEARCH_MIN,
    placeholderData: keepPreviousData,
  });
}

/**
 * Downloads the server's streamed .xlsx (`GET /ticketreport/export`), telling the bytes received
 * as they come, and saves it as relatorio-de-atendimentos.xlsx.
 */
export async function downloadReport(filter: ReportFilterValues, onProgress: (bytes: number) => void): Promise<void> {
  const token = getToken();
  const res = await fetch(`${apiUrl()}/ticketreport/export?${reportParams(filter).toString()}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    credentials: 'include',
  });
  if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.byteLength;
    onProgress(bytes);
  }
  const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: res.headers.get('content-type') ?? undefined }));
  const a = document.createElement('a');
  a.href = url;
  a.download = REPORT_FILE_NAME;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The company's users for the users filter (`GET /users/list`). */
export function useUserOptions() {
  return useQuery({
    queryKey: ['reports', 'users'],
    queryFn: ({ signal }) => request<{ id: number; name: string }[]>('/users/list', { signal }),
  });
}
