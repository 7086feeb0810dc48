import { COMPANY_SETTING_DEFAULTS, COMPANY_SETTING_KEYS, type CompanySettingKey } from '@balcao/contracts';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { snakeCase, timestamps } from './common.js';
import { companies } from './companies.js';

/** Global (platform-wide) settings: branding, userCreation. */
export const settings = pgTable('settings', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  key: text('key').notNull().unique(),
  value: text('value'),
  ...timestamps,
});

const settingColumn = (key: CompanySettingKey) => text(snakeCase(key)).notNull().default(COMPANY_SETTING_DEFAULTS[key]);

/** One column per key of the contracts' COMPANY_SETTING_DEFAULTS, so a new key is one contracts edit + a generated migration. */
const companySettingColumns = Object.fromEntries(COMPANY_SETTING_KEYS.map((k) => [k, settingColumn(k)])) as {
  [K in CompanySettingKey]: ReturnType<typeof settingColumn>;
};

/** Per-company settings: one row per company (company_id unique, which is also its leading index). */
export const companySettings = pgTable('company_settings', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  companyId: integer('company_id')
    .notNull()
    .unique()
    .references(() => companies.id, { onDelete: 'cascade' }),
  ...companySettingColumns,
  ...timestamps,
});
