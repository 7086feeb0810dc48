import {
  DEFAULT_CAMPAIGN_SETTINGS,
  campaignVariableSchema,
  type CampaignSettingRow,
  type CampaignSettings,
  type campaignSettingsBody,
} from '@balcao/contracts';
import { asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { campaignSettings } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';

/**
 * Campaign settings (spec 3 §3): stored as the key/value list `GET /campaign-settings`
 * answers (numbers and booleans as text, `variables` as JSON text); a key never saved has
 * its default (20/20/60, 09:00–18:00, weekends off), as does a value that no longer reads.
 */

const KEYS = Object.keys(DEFAULT_CAMPAIGN_SETTINGS) as (keyof CampaignSettings)[];
const variablesJson = z.string().transform((text, ctx) => {
  try {
    return z.array(campaignVariableSchema).parse(JSON.parse(text));
  } catch {
    ctx.addIssue({ code: 'custom', message: 'not a variable list' });
    return z.NEVER;
  }
});

function parseValue<K extends keyof CampaignSettings>(key: K, text: string): CampaignSettings[K] | undefined {
  const fallback = DEFAULT_CAMPAIGN_SETTINGS[key];
  if (key === 'variables') return variablesJson.safeParse(text).data as CampaignSettings[K] | undefined;
  if (typeof fallback === 'boolean') return (text === 'true') as CampaignSettings[K];
  if (typeof fallback === 'number') {
    const n = Number(text);
    return (Number.isFinite(n) && n >= 0 ? n : undefined) as CampaignSettings[K] | undefined;
  }
  return (/^\d{2}:\d{2}$/.test(text) ? text : undefined) as CampaignSettings[K] | undefined;
}

const textOf = (value: CampaignSettings[keyof CampaignSettings]) => (typeof value === 'object' ? JSON.stringify(value) : String(value));

/** The company's settings as the engine uses them. */
export async function readCampaignSettings(db: DbOrTx, companyId: number): Promise<CampaignSettings> {
  const rows = await db.select().from(campaignSettings).where(eq(campaignSettings.companyId, companyId));
  const settings: CampaignSettings = { ...DEFAULT_CAMPAIGN_SETTINGS };
  for (const row of rows) {
    if (!(KEYS as string[]).includes(row.key)) continue;
    const key = row.key as keyof CampaignSettings;
    const value = parseValue(key, row.value);
    if (value !== undefined) (settings as Record<string, unknown>)[key] = value;
  }
  return settings;
}

/** `GET /campaign-settings`: every key, saved or default (a default has id 0). */
export async function listCampaignSettings(ctx: AppContext, by: AuthUser): Promise<CampaignSettingRow[]> {
  const rows = await ctx.db.select().from(campaignSettings).where(eq(campaignSettings.companyId, by.companyId)).orderBy(asc(campaignSettings.id));
  const saved = new Map(rows.map((r) => [r.key, r]));
  const current = await readCampaignSettings(ctx.db, by.companyId);
  return KEYS.map((key) => ({ id: saved.get(key)?.id ?? 0, key, value: textOf(current[key]) }));
}

/** `POST /campaign-settings` `{ settings }`: the keys given are saved, the others kept. */
export async function saveCampaignSettings(ctx: AppContext, by: AuthUser, body: z.output<typeof campaignSettingsBody>): Promise<CampaignSettingRow[]> {
  const entries = Object.entries(body.settings).filter(([, v]) => v !== undefined) as [keyof CampaignSettings, CampaignSettings[keyof CampaignSettings]][];
  if (entries.length) {
    await ctx.db
      .insert(campaignSettings)
      .values(entries.map(([key, value]) => ({ companyId: by.companyId, key, value: textOf(value) })))
      .onConflictDoUpdate({ target: [campaignSettings.companyId, campaignSettings.key], set: { value: sql`excluded.value`, updatedAt: sql`now()` } });
  }
  return listCampaignSettings(ctx, by);
}
