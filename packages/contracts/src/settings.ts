import { z } from 'zod';
import { DEFAULT_PRIMARY_COLOR, SCHEDULE_TYPES } from './constants.js';

export const toggleSchema = z.enum(['enabled', 'disabled']);
export type Toggle = z.infer<typeof toggleSchema>;

/**
 * Per-company settings (spec 1 §3 "Company settings") with the defaults a new
 * company gets. Toggles are 'enabled' | 'disabled'; the rest are free text.
 */
export const COMPANY_SETTING_DEFAULTS = {
  userRating: 'disabled',
  scheduleType: 'disabled',
  chatBotType: 'text',
  acceptCallWhatsapp: 'enabled',
  AcceptCallWhatsappMessage: '',
  userRandom: 'disabled',
  sendGreetingMessageOneQueues: 'enabled',
  sendSignMessage: 'enabled',
  sendFarewellWaitingTicket: 'disabled',
  sendGreetingAccepted: 'disabled',
  greetingAcceptedMessage: '',
  sendQueuePosition: 'disabled',
  sendQueuePositionMessage: '',
  acceptAudioMessageContact: 'enabled',
  enableLGPD: 'disabled',
  lgpdMessage: '',
  lgpdLink: '',
  lgpdConsent: 'disabled',
  lgpdDeleteMessage: 'disabled',
  lgpdHideNumber: 'disabled',
  requiredTag: 'disabled',
  sendMsgTransfTicket: 'disabled',
  transferMessage: '',
  DirectTicketsToWallets: 'disabled',
  closeTicketOnTransfer: 'disabled',
  showNotificationPending: 'disabled',
  campaignsEnabled: 'disabled',
} as const;

export type CompanySettingKey = keyof typeof COMPANY_SETTING_DEFAULTS;
export type CompanySettings = { [K in CompanySettingKey]: string };
export const COMPANY_SETTING_KEYS = Object.keys(COMPANY_SETTING_DEFAULTS) as CompanySettingKey[];

export const companySettingsSchema = z.object(
  Object.fromEntries(COMPANY_SETTING_KEYS.map((k) => [k, z.string()])) as Record<CompanySettingKey, z.ZodString>,
);

export const scheduleTypeSchema = z.enum(SCHEDULE_TYPES);

/** Global settings readable without login (spec 1 §3 "Global (public) settings"). */
export const PUBLIC_SETTING_KEYS = [
  'userCreation',
  'primaryColorLight',
  'primaryColorDark',
  'appLogoLight',
  'appLogoDark',
  'appLogoFavicon',
  'appName',
  'loginEnterImage',
  'loginRegisterImage',
] as const;
export type PublicSettingKey = (typeof PUBLIC_SETTING_KEYS)[number];

export function isPublicSettingKey(key: string): key is PublicSettingKey {
  return (PUBLIC_SETTING_KEYS as readonly string[]).includes(key);
}

/** Values seeded on first boot. Empty image keys mean "use the built-in default". */
export const GLOBAL_SETTING_DEFAULTS: Record<PublicSettingKey, string> = {
  userCreation: 'enabled',
  primaryColorLight: DEFAULT_PRIMARY_COLOR,
  primaryColorDark: '#39ACE7',
  appLogoLight: '',
  appLogoDark: '',
  appLogoFavicon: '',
  appName: 'Balcão',
  loginEnterImage: '',
  loginRegisterImage: '',
};

export const settingSchema = z.object({ key: z.string(), value: z.string().nullable() });
export type Setting = z.infer<typeof settingSchema>;

export const updateSettingBody = z.object({ value: z.string().max(10_000) });
export type UpdateSettingBody = z.infer<typeof updateSettingBody>;

export const versionSchema = z.object({ version: z.string() });
export const postVersionBody = z.object({ version: z.string().min(1).max(50) });
export type PostVersionBody = z.infer<typeof postVersionBody>;
