import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CompaniesPage, Company, CreateCompanyBody, ListEventPayload, UpdateCompanyBody, WeekSchedule } from '@balcao/contracts';
import { request } from './http';
import { listChange } from './liveEvents';
import { storeRecordChange, type PagedList } from './pagedList';

export const companiesKeys = {
  pages: ['companies', 'page'] as const,
  one: (id: number) => ['companies', 'one', id] as const,
};

export function companyMatches(company: Pick<Company, 'name' | 'email' | 'document'>, search: string): boolean {
  const s = search.trim().toLowerCase();
  if (!s) return true;
  return [company.name, company.email, company.document].some((v) => (v ?? '').toLowerCase().includes(s));
}

/** `GET /companies` (searchParam, pageNumber) and `company-{id}-company` (super users only): the companies list. */
export const companiesList: PagedList<CompaniesPage, Company, ListEventPayload<Company>> = {
  key: companiesKeys.pages,
  path: (search, page) => `/companies?searchParam=${encodeURIComponent(search)}&pageNumber=${page}`,
  records: { get: (p) => p.companies, set: (p, companies) => ({ ...p, companies }) },
  matches: companyMatches,
  event: 'company',
  change: listChange,
  alsoStore: (queryClient, change) => {
    if (change.kind === 'upsert') queryClient.setQueryData(companiesKeys.one(change.record.id), change.record);
    else queryClient.removeQueries({ queryKey: companiesKeys.one(change.id) });
  },
};

/** `GET /companies/{id}` (own company for admins: the opening hours). */
export function useCompany(id: number) {
  return useQuery({
    queryKey: companiesKeys.one(id),
    queryFn: ({ signal }) => request<Company>(`/companies/${id}`, { signal }),
  });
}

export function useSaveCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: CreateCompanyBody | UpdateCompanyBody }) =>
      id === null ? request<Company>('/companies', { method: 'POST', body }) : request<Company>(`/companies/${id}`, { method: 'PUT', body }),
    onSuccess: (company) => storeRecordChange(queryClient, companiesList, { kind: 'upsert', record: company }),
  });
}

/** `POST /companies/{id}/renew`: one recurrence period more (1, 2, 3, 6 or 12 months). */
export function useRenewCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request<Company>(`/companies/${id}/renew`, { method: 'POST' }),
    onSuccess: (company) => storeRecordChange(queryClient, companiesList, { kind: 'upsert', record: company }),
  });
}

export function useDeleteCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request(`/companies/${id}`, { method: 'DELETE' }),
    onSuccess: (_data, id) => storeRecordChange(queryClient, companiesList, { kind: 'delete', id }),
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
