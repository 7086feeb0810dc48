import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  COMPANY_SETTING_KEYS,
  COMPANY_SETTING_MESSAGE_RULES,
  type CompanySettingKey,
  type CompanySettings,
  type PublicSettingKey,
  type Setting,
  type SettingsEventPayload,
  isPublicSettingKey,
} from '@balcao/contracts';
import { request } from './http';
import { useCompanyEvent } from './liveEvents';
import { storePublicSetting } from './publicSettings';

export const companySettingsKey = (companyId: number) => ['companySettings', companyId] as const;
export const globalSettingsKey = ['settings', 'global'] as const;

const isCompanySettingKey = (key: string): key is CompanySettingKey => (COMPANY_SETTING_KEYS as readonly string[]).includes(key);

/** `GET /companySettings/{companyId}`: one flat object of every company setting. */
export function useCompanySettings(companyId: number) {
  return useQuery({
    queryKey: companySettingsKey(companyId),
    queryFn: ({ signal }) => request<CompanySettings>(`/companySettings/${companyId}`, { signal }),
  });
}

/**
 * The order in which changed settings are written, one `PUT /companySettings`
 * each: messages that gain a text first, then the choices, then messages that
 * are emptied, so the server's message rules (spec 1 §5) hold after every step.
 */
export function settingsWriteOrder(before: CompanySettings, after: CompanySettings): CompanySettingKey[] {
  const changed = COMPANY_SETTING_KEYS.filter((k) => before[k] !== after[k]);
  const messages = new Set<string>(COMPANY_SETTING_MESSAGE_RULES.map((r) => r.message));
  const filled = changed.filter((k) => messages.has(k) && after[k].trim() !== '');
  const emptied = changed.filter((k) => messages.has(k) && after[k].trim() === '');
  const others = changed.filter((k) => !messages.has(k));
  return [...filled, ...others, ...emptied];
}

export function useSaveCompanySettings(companyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ before, after }: { before: CompanySettings; after: CompanySettings }) => {
      let latest = before;
      for (const column of settingsWriteOrder(before, after)) {
        latest = await request<CompanySettings>('/companySettings', { method: 'PUT', body: { column, data: after[column] } });
        queryClient.setQueryData(companySettingsKey(companyId), latest);
      }
      return latest;
    },
  });
}

/** `GET /settings`: the global settings (every key for the super user). */
export function useGlobalSettings(enabled: boolean) {
  return useQuery({
    queryKey: globalSettingsKey,
    queryFn: ({ signal }) => request<Setting[]>('/settings', { signal }),
    enabled,
  });
}

function storeGlobal(queryClient: ReturnType<typeof useQueryClient>, setting: Setting): void {
  queryClient.setQueryData<Setting[]>(globalSettingsKey, (list) => {
    if (!list) return list;
    return list.some((s) => s.key === setting.key) ? list.map((s) => (s.key === setting.key ? setting : s)) : [...list, setting];
  });
  if (isPublicSettingKey(setting.key)) storePublicSetting(queryClient, setting.key, setting.value);
}

/** `PUT /settings/{key}`; the branding shows at once (the public-settings cache is updated too). */
export function useUpdateGlobalSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value }: { key: string; value: string }) => request<Setting>(`/settings/${key}`, { method: 'PUT', body: { value } }),
    onSuccess: (setting) => storeGlobal(queryClient, setting),
  });
}

export type WhitelabelUpload =
  | { typeArch: 'logo'; mode: 'light' | 'dark' | 'favicon' }
  | { typeArch: 'login'; mode: 'enter' | 'register' };

const UPLOAD_KEYS: Record<string, PublicSettingKey> = {
  'logo:light': 'appLogoLight',
  'logo:dark': 'appLogoDark',
  'logo:favicon': 'appLogoFavicon',
  'login:enter': 'loginEnterImage',
  'login:register': 'loginRegisterImage',
};

/** `POST /settings-whitelabel/{logo|login}` (multipart typeArch, mode, file): answers the stored file name. */
export function useUploadWhitelabel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ target, file }: { target: WhitelabelUpload; file: File }) => {
      const form = new FormData();
      form.append('typeArch', target.typeArch);
      form.append('mode', target.mode);
      form.append('file', file);
      const fileName = await request<string>(`/settings-whitelabel/${target.typeArch}`, { method: 'POST', body: form });
      return { key: UPLOAD_KEYS[`${target.typeArch}:${target.mode}`], fileName };
    },
    onSuccess: ({ key, fileName }) => {
      if (key) storeGlobal(queryClient, { key, value: fileName });
    },
  });
}

/** `company-{id}-settings`: a company setting or a global one changed; the caches follow. */
export function useSettingsLive(companyId: number): void {
  const queryClient = useQueryClient();
  useCompanyEvent<SettingsEventPayload>('settings', ({ setting }) => {
    if (!setting) return;
    if (isCompanySettingKey(setting.key)) {
      const key = setting.key;
      queryClient.setQueryData<CompanySettings>(companySettingsKey(companyId), (current) =>
        current ? { ...current, [key]: setting.value ?? '' } : current,
      );
      return;
    }
    storeGlobal(queryClient, setting);
  });
}
