import { z } from 'zod';
import { DEFAULT_PRIMARY_COLOR, LANGUAGES, SCHEDULE_TYPES } from './constants.js';
import { looseToggle, toggleSchema, type Toggle } from './lenient.js';


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
  /** The language of the words the bot itself sends ('Voltar', 'Aceito'…): one of LANGUAGES (issue 16). */
  botLanguage: 'pt-BR',
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

/** `GET /public-settings`: every public setting in one answer (null when unset), for the login page's branding. */
export const publicSettingsSchema = z.object(
  Object.fromEntries(PUBLIC_SETTING_KEYS.map((k) => [k, z.string().nullable()])) as Record<PublicSettingKey, z.ZodNullable<z.ZodString>>,
);
export type PublicSettings = z.infer<typeof publicSettingsSchema>;

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

/** Built-in images under `/public/app/` (shipped with the server): the default avatar clients show. */
export const DEFAULT_AVATAR_FILE = 'app/noimage.png';

/** The built-in image each branding setting resolves to while it has no file of its own. */
export const BRANDING_DEFAULT_IMAGES = {
  appLogoLight: 'app/logo.png',
  appLogoDark: 'app/logo-dark.png',
  appLogoFavicon: 'app/favicon.png',
  loginEnterImage: 'app/login.png',
  loginRegisterImage: 'app/login.png',
} as const satisfies Partial<Record<PublicSettingKey, string>>;

/** A setting's value as the API answers it: an empty branding image is its built-in default. */
export function resolveSettingValue(key: string, value: string | null): string | null {
  if (value || !Object.hasOwn(BRANDING_DEFAULT_IMAGES, key)) return value;
  return BRANDING_DEFAULT_IMAGES[key as keyof typeof BRANDING_DEFAULT_IMAGES];
}

/** Whether a branding value is one of the built-in defaults (the web app shows the app name instead of the built-in logo). */
export const isDefaultBrandingImage = (value: string) => (Object.values(BRANDING_DEFAULT_IMAGES) as string[]).includes(value);

export const settingSchema = z.object({ key: z.string(), value: z.string().nullable() });
export type Setting = z.infer<typeof settingSchema>;

export const updateSettingBody = z.object({ value: z.string().max(10_000) });
export type UpdateSettingBody = z.infer<typeof updateSettingBody>;

export const versionSchema = z.object({ version: z.string() });
export const postVersionBody = z.object({ version: z.string().min(1).max(50) });
export type PostVersionBody = z.infer<typeof postVersionBody>;

/** Company settings holding free text (messages, link); every other key is a fixed choice. */
const COMPANY_SETTING_TEXTS = [
  'AcceptCallWhatsappMessage',
  'greetingAcceptedMessage',
  'sendQueuePositionMessage',
  'lgpdMessage',
  'lgpdLink',
  'transferMessage',
] as const satisfies readonly CompanySettingKey[];

const isTextSetting = (key: CompanySettingKey) => (COMPANY_SETTING_TEXTS as readonly string[]).includes(key);

/** The value rule of each company setting: toggles enabled|disabled, scheduleType one of four, chatBotType text, botLanguage one of LANGUAGES. */
export const COMPANY_SETTING_VALUE_SCHEMAS = Object.fromEntries(
  COMPANY_SETTING_KEYS.map((key) => {
    if (key === 'scheduleType') return [key, scheduleTypeSchema];
    if (key === 'chatBotType') return [key, z.enum(['text'])];
    if (key === 'botLanguage') return [key, z.enum(LANGUAGES)];
    return [key, isTextSetting(key) ? z.string().max(5000, 'Too Long!') : toggleSchema];
  }),
) as Record<CompanySettingKey, z.ZodType<string>>;

/** Messages required by a toggle's state (spec 1 §5 Settings). */
export const COMPANY_SETTING_MESSAGE_RULES = [
  { toggle: 'sendMsgTransfTicket', when: 'enabled', message: 'transferMessage' },
  { toggle: 'sendGreetingAccepted', when: 'enabled', message: 'greetingAcceptedMessage' },
  { toggle: 'acceptCallWhatsapp', when: 'disabled', message: 'AcceptCallWhatsappMessage' },
  { toggle: 'sendQueuePosition', when: 'enabled', message: 'sendQueuePositionMessage' },
] as const satisfies readonly { toggle: CompanySettingKey; when: Toggle; message: CompanySettingKey }[];

/** Rule breaches of a whole settings object, each on the message field that is missing. */
export function companySettingsIssues(settings: Partial<CompanySettings>): { path: CompanySettingKey; message: string }[] {
  return COMPANY_SETTING_MESSAGE_RULES.filter((r) => settings[r.toggle] === r.when && !settings[r.message]?.trim()).map((r) => ({
    path: r.message,
    message: 'Required',
  }));
}

/** The whole options form: each value by its rule, plus the message rules. */
export const companySettingsFormSchema = z
  .object(COMPANY_SETTING_VALUE_SCHEMAS)
  .superRefine((settings, ctx) => {
    for (const issue of companySettingsIssues(settings)) ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
  });

/**
 * `data` of `PUT /companySettings` as clients send it: a toggle also as true/false or "enable"/"disable", null for the
 * column's default; then the column's own rule (a text setting stays text: a number there is a 400).
 */
const COMPANY_SETTING_REQUEST_SCHEMAS = Object.fromEntries(
  COMPANY_SETTING_KEYS.map((key) => {
    const rule = COMPANY_SETTING_VALUE_SCHEMAS[key];
    const fallback = COMPANY_SETTING_DEFAULTS[key];
    if (rule === toggleSchema) return [key, looseToggle(fallback as Toggle)];
    return [key, z.preprocess((v: string | null) => v ?? fallback, rule)];
  }),
) as Record<CompanySettingKey, z.ZodType<string>>;

/** `PUT /companySettings`: one column (a known key only) and its new value, stored in the spec's form. */
export const updateCompanySettingBody = z
  .object({ column: z.enum(COMPANY_SETTING_KEYS as [CompanySettingKey, ...CompanySettingKey[]]), data: z.unknown() })
  .transform(({ column, data }, ctx) => {
    const parsed = COMPANY_SETTING_REQUEST_SCHEMAS[column].safeParse(data);
    if (parsed.success) return { column, data: parsed.data };
    for (const i of parsed.error.issues) ctx.addIssue({ code: 'custom', path: ['data'], message: i.message });
    return z.NEVER;
  });
export type UpdateCompanySettingBody = z.infer<typeof updateCompanySettingBody>;

/** `GET /companySettingOne?column=`: a known key only; answers `{ [column]: value }`. */
export const companySettingOneQuery = z.object({ column: z.enum(COMPANY_SETTING_KEYS as [CompanySettingKey, ...CompanySettingKey[]]) });

/** Branding images: which global setting each whitelabel upload `mode` replaces (`typeArch` logo | login). */
export const WHITELABEL_IMAGE_MODES = {
  logo: { light: 'appLogoLight', dark: 'appLogoDark', favicon: 'appLogoFavicon' },
  login: { enter: 'loginEnterImage', register: 'loginRegisterImage' },
} as const satisfies Record<string, Record<string, PublicSettingKey>>;
export type WhitelabelKind = keyof typeof WHITELABEL_IMAGE_MODES;
