import { useInfiniteQuery } from '@tanstack/react-query';
import type { AuditLogPage, AuditLogQuery } from '@balcao/contracts';
import { request } from './http';

/** The filters of the audit view, as `GET /audit-log` takes them (pageNumber aside). */
export type AuditFilters = Omit<AuditLogQuery, 'pageNumber'>;

function auditPath(filters: AuditFilters, pageNumber: number): string {
  const params = new URLSearchParams({ pageNumber: String(pageNumber) });
  for (const [key, value] of Object.entries(filters)) if (value !== undefined && value !== '') params.set(key, String(value));
  return `/audit-log?${params.toString()}`;
}

/** `GET /audit-log`, page after page (newest first). */
export function useAuditLog(filters: AuditFilters) {
  return useInfiniteQuery({
    queryKey: ['audit-log', filters],
    queryFn: ({ pageParam, signal }) => request<AuditLogPage>(auditPath(filters, pageParam), { signal }),
    initialPageParam: 1,
    getNextPageParam: (last: AuditLogPage, pages: AuditLogPage[]) => (last.hasMore ? pages.length + 1 : undefined),
  });
}
