import {
  GLOBAL_SETTING_DEFAULTS,
  PUBLIC_SETTING_KEYS,
  isPublicSettingKey,
  resolveSettingValue,
  toggleSchema,
  type CompanySettingKey,
  type CompanySettings,
  type PublicSettings,
  type Setting,
  type UpdateCompanySettingBody,
} from '@balcao/contracts';
import { z } from 'zod';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { loadCompanySettings } from '../users/queries.js';
import { writeCompanySettings } from './company-settings.js';
import { findSetting, listSettings, upsertSetting } from './queries.js';

const color = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'expected a #RRGGBB colour');
const fileName = z.string().max(500);

/** The global keys that may be written, each with its rule. */
const GLOBAL_SETTING_RULES: Record<keyof typeof GLOBAL_SETTING_DEFAULTS, z.ZodType<string>> = {
  userCreation: toggleSchema,
  primaryColorLight: color,
  primaryColorDark: color,
  appLogoLight: fileName,
  appLogoDark: fileName,
  appLogoFavicon: fileName,
  appName: z.string().trim().min(1).max(100),
  loginEnterImage: fileName,
  loginRegisterImage: fileName,
};

const isKnownKey = (key: string): key is keyof typeof GLOBAL_SETTING_RULES => Object.hasOwn(GLOBAL_SETTING_RULES, key);

/** `/public-settings/{key}`: only public keys, as the bare value. Anything else is "not found", never leaked. */
export async function publicSettingValue(ctx: AppContext, key: string): Promise<string | null> {
  if (!isPublicSettingKey(key)) throw new AppError('ERR_NO_SETTING_FOUND', 404);
  return resolveSettingValue(key, (await findSetting(ctx.db, key))?.value ?? null);
}

/** A setting as the API answers it (branding images without a file → the built-in default). */
const presentSetting = (setting: Setting): Setting => ({ ...setting, value: resolveSettingValue(setting.key, setting.value) });

/** `GET /public-settings`: the public keys in one object (the per-key endpoint stays for other clients). */
export async function publicSettings(ctx: AppContext): Promise<PublicSettings> {
  const rows = await listSettings(ctx.db, PUBLIC_SETTING_KEYS);
  const value = new Map(rows.map((r) => [r.key, r.value]));
  return Object.fromEntries(PUBLIC_SETTING_KEYS.map((k) => [k, resolveSettingValue(k, value.get(k) ?? null)])) as PublicSettings;
}

/** `GET /settings`: everything for the super user, the public keys for everyone else. */
export async function listGlobalSettings(ctx: AppContext, by: AuthUser): Promise<Setting[]> {
  return (await listSettings(ctx.db, by.super ? undefined : PUBLIC_SETTING_KEYS)).map(presentSetting);
}

export async function getSetting(ctx: AppContext, by: AuthUser, key: string): Promise<Setting> {
  if (!by.super && !isPublicSettingKey(key)) throw new AppError('ERR_NO_SETTING_FOUND', 404);
  const row = await findSetting(ctx.db, key);
  if (!row) throw new AppError('ERR_NO_SETTING_FOUND', 404);
  return presentSetting(row);
}

/** `PUT /settings/{key}`: super user only, known keys only, value checked per key. */
export async function updateGlobalSetting(ctx: AppContext, by: AuthUser, key: string, value: string): Promise<Setting> {
  if (!by.super) throw new AppError('ERR_NO_PERMISSION', 403);
  if (!isKnownKey(key)) throw new AppError('ERR_NO_SETTING_FOUND', 404);
  const parsed = GLOBAL_SETTING_RULES[key].safeParse(value);
  if (!parsed.success) {
    throw new AppError('ERR_VALIDATION', 400, undefined, parsed.error.issues.map((i) => ({ path: 'value', message: i.message })));
  }
  const setting = await upsertSetting(ctx.db, key, parsed.data);
  if (!setting) throw new AppError('ERR_INTERNAL', 500);
  await emitGlobalSetting(ctx, setting);
  return presentSetting(setting);
}

/** Branding and userCreation are platform-wide: every open page hears about it, the login page included. */
export async function emitGlobalSetting(ctx: AppContext, stored: Setting): Promise<void> {
  await ctx.events.publish({ type: 'platform.setting', setting: presentSetting(stored) });
}

export async function companySettingsOf(ctx: AppContext, by: AuthUser, companyId: number): Promise<CompanySettings> {
  if (companyId !== by.companyId && !by.super) throw new AppError('ERR_NO_PERMISSION', 403);
  const flat = await loadCompanySettings(ctx.db, companyId);
  if (!flat) throw new AppError('ERR_NO_COMPANY_FOUND', 404);
  return flat;
}

/** `GET /companySettingOne?column=`: one setting of the caller's company as `{ [column]: value }`. */
export async function companySettingOne(ctx: AppContext, by: AuthUser, column: CompanySettingKey): Promise<Record<string, string>> {
  const flat = await loadCompanySettings(ctx.db, by.companyId);
  if (!flat) throw new AppError('ERR_NO_COMPANY_FOUND', 404);
  return { [column]: flat[column] };
}

/** `PUT /companySettings`: one column of the caller's company (value and message rules checked); answers every setting. */
export async function updateCompanySetting(ctx: AppContext, by: AuthUser, { column, data }: UpdateCompanySettingBody): Promise<CompanySettings> {
  const flat = await ctx.db.transaction((tx) => writeCompanySettings(tx, by.companyId, { [column]: data }));
  await ctx.events.publish({ type: 'company.record', companyId: by.companyId, name: 'settings', payload: { action: 'update', setting: { key: column, value: data } } });
  return flat;
}
