import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Campaign, CampaignBody, CampaignPage, CampaignReport, CampaignSettingRow, CampaignSettingsBody, ListEventPayload } from '@balcao/contracts';
import { request } from '../../api/http';
import { listChange, useCompanyEvent } from '../../api/liveEvents';
import { storeRecordChange, type PagedList } from '../../api/pagedList';

/** `GET /campaigns` and `company-{companyId}-campaign`: the /campaigns table. */
export const campaignsList: PagedList<CampaignPage, Campaign, ListEventPayload<CampaignReport>> = {
  key: ['campaigns', 'page'],
  path: (search, page) => `/campaigns?searchParam=${encodeURIComponent(search)}&pageNumber=${page}`,
  records: { get: (p) => p.records, set: (p, records) => ({ ...p, records }) },
  matches: (c, search) => c.name.toLowerCase().includes(search.trim().toLowerCase()),
  event: 'campaign',
  change: listChange,
};

const reportKey = (id: number) => ['campaigns', 'report', id] as const;

/** `GET /campaigns/{id}` with its figures, kept current by `company-{companyId}-campaign`; `onFinished` hears a live FINALIZADA. */
export function useCampaignReport(id: number, onFinished?: () => void) {
  const queryClient = useQueryClient();
  useCompanyEvent<ListEventPayload<CampaignReport>>('campaign', (p) => {
    if (p.action === 'delete' || p.record.id !== id) return;
    queryClient.setQueryData(reportKey(id), p.record);
    if (p.record.status === 'FINALIZADA') onFinished?.();
  });
  return useQuery({ queryKey: reportKey(id), queryFn: ({ signal }) => request<CampaignReport>(`/campaigns/${id}`, { signal }) });
}

const store = (queryClient: ReturnType<typeof useQueryClient>, c: Campaign) => storeRecordChange(queryClient, campaignsList, { kind: 'upsert', record: c });

/** Saves the modal, then its attachment: a new file uploaded (`POST …/media-upload`), a removed one deleted; `restart` then restarts a CANCELADA one. */
export function useSaveCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body, file, removeMedia }: { id: number | null; body: CampaignBody; file: File | null; removeMedia: boolean }) => {
      let saved = id === null ? await request<Campaign>('/campaigns', { method: 'POST', body }) : await request<Campaign>(`/campaigns/${id}`, { method: 'PUT', body });
      store(queryClient, saved);
      if (file) {
        const form = new FormData();
        form.append('file', file);
        saved = await request<Campaign>(`/campaigns/${saved.id}/media-upload`, { method: 'POST', body: form });
      } else if (removeMedia) {
        saved = await request<Campaign>(`/campaigns/${saved.id}/media-upload`, { method: 'DELETE' });
      }
      store(queryClient, saved);
      return saved;
    },
  });
}

/** `POST /campaigns/{id}/cancel` or `/restart`. */
export function useCampaignAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'cancel' | 'restart' }) => request<Campaign>(`/campaigns/${id}/${action}`, { method: 'POST' }),
    onSuccess: (c) => store(queryClient, c),
  });
}

export function useDeleteCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request(`/campaigns/${id}`, { method: 'DELETE' }),
    onSuccess: (_d, id) => storeRecordChange(queryClient, campaignsList, { kind: 'delete', id }),
  });
}

const settingsKey = ['campaigns', 'settings'] as const;

/** `GET /campaign-settings` as a key → value map. */
export function useCampaignSettings() {
  return useQuery({
    queryKey: settingsKey,
    queryFn: async ({ signal }) => Object.fromEntries((await request<CampaignSettingRow[]>('/campaign-settings', { signal })).map((r) => [r.key, r.value])) as Record<string, string>,
  });
}

export function useSaveCampaignSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: CampaignSettingsBody['settings']) => request<CampaignSettingRow[]>('/campaign-settings', { method: 'POST', body: { settings } }),
    onSuccess: (rows) => queryClient.setQueryData(settingsKey, Object.fromEntries(rows.map((r) => [r.key, r.value]))),
  });
}
