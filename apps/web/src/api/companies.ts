import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { CompaniesPage, Company, CreateCompanyBody, ListEventPayload, UpdateCompanyBody, WeekSchedule } from '@balcao/contracts';
import { request } from './http';
import { applyToPages, useCompanyEvent } from './liveEvents';

export const companiesKeys = {
  pages: (search: string) => ['companies', 'page', search] as const,
  one: (id: number) => ['companies', 'one', id] as const,
};

export function companyMatches(company: Pick<Company, 'name' | 'email' | 'document'>, search: string): boolean {
  const s = search.trim().toLowerCase();
  if (!s) return true;
  return [company.name, company.email, company.document].some((v) => (v ?? '').toLowerCase().includes(s));
}

const pageRecords = {
  get: (p: CompaniesPage) => p.companies,
  set: (p: CompaniesPage, companies: Company[]) => ({ ...p, companies }),
};

/** `GET /companies` (searchParam, pageNumber): the super user's companies list. */
export function useCompaniesPages(search: string) {
  return useInfiniteQuery({
    queryKey: companiesKeys.pages(search),
    queryFn: ({ pageParam, signal }) =>
      request<CompaniesPage>(`/companies?searchParam=${encodeURIComponent(search)}&pageNumber=${pageParam}`, { signal }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

/** `GET /companies/{id}` (own company for admins: the opening hours). */
export function useCompany(id: number) {
  return useQuery({
    queryKey: companiesKeys.one(id),
    queryFn: ({ signal }) => request<Company>(`/companies/${id}`, { signal }),
  });
}

function storeCompany(queryClient: ReturnType<typeof useQueryClient>, change: { kind: 'upsert'; record: Company } | { kind: 'delete'; id: number }) {
  for (const [key, data] of queryClient.getQueriesData<InfiniteData<CompaniesPage>>({ queryKey: ['companies', 'page'] })) {
    const search = typeof key[2] === 'string' ? key[2] : '';
    const c = change.kind === 'delete' ? change : { ...change, matches: companyMatches(change.record, search) };
    queryClient.setQueryData(key, applyToPages(data, pageRecords, c));
  }
  if (change.kind === 'upsert') queryClient.setQueryData(companiesKeys.one(change.record.id), change.record);
  else queryClient.removeQueries({ queryKey: companiesKeys.one(change.id) });
}

/** `company-{id}-company` events (super users only) applied to the cached lists. */
export function useCompaniesLive(enabled: boolean): void {
  const queryClient = useQueryClient();
  useCompanyEvent<ListEventPayload<Company>>(
    'company',
    (payload) => storeCompany(queryClient, payload.action === 'delete' ? { kind: 'delete', id: payload.id } : { kind: 'upsert', record: payload.record }),
    enabled,
  );
}

export function useSaveCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: CreateCompanyBody | UpdateCompanyBody }) =>
      id === null ? request<Company>('/companies', { method: 'POST', body }) : request<Company>(`/companies/${id}`, { method: 'PUT', body }),
    onSuccess: (company) => storeCompany(queryClient, { kind: 'upsert', record: company }),
  });
}

/** `POST /companies/{id}/renew`: one recurrence period more (1, 2, 3, 6 or 12 months). */
export function useRenewCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request<Company>(`/companies/${id}/renew`, { method: 'POST' }),
    onSuccess: (company) => storeCompany(queryClient, { kind: 'upsert', record: company }),
  });
}

export function useDeleteCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request(`/companies/${id}`, { method: 'DELETE' }),
    onSuccess: (_data, id) => storeCompany(queryClient, { kind: 'delete', id }),
  });
}

/** `PUT /companies/{id}/schedules`: the company's opening hours. */
export function useSaveCompanySchedules(companyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (schedules: WeekSchedule) => request<Company>(`/companies/${companyId}/schedules`, { method: 'PUT', body: { schedules } }),
    onSuccess: (company) => queryClient.setQueryData(companiesKeys.one(company.id), company),
  });
}
