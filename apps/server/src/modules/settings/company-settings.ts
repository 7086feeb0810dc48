import { COMPANY_SETTING_MESSAGE_RULES, companySettingsIssues, type CompanySettings } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { companySettings } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { presentCompanySettings } from '../users/queries.js';

/**
 * Writes already value-checked settings of one company, after checking the message rules
 * of spec 1 §5 on the resulting whole (e.g. enabling sendMsgTransfTicket needs a
 * transferMessage already saved). Only rules touching a changed key are checked, so an
 * old inconsistency elsewhere never blocks an unrelated change.
 */
export async function writeCompanySettings(tx: Tx, companyId: number, patch: Partial<CompanySettings>): Promise<CompanySettings> {
  const [row] = await tx.select().from(companySettings).where(eq(companySettings.companyId, companyId)).for('update');
  const merged = { ...presentCompanySettings(row), ...patch };
  const touched = COMPANY_SETTING_MESSAGE_RULES.filter((r) => r.toggle in patch || r.message in patch).map((r) => r.message as string);
  const issues = companySettingsIssues(merged).filter((issue) => touched.includes(issue.path));
  if (issues.length > 0) throw new AppError('ERR_VALIDATION', 400, issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);

  const [saved] = row
    ? await tx.update(companySettings).set(patch).where(eq(companySettings.companyId, companyId)).returning()
    : await tx.insert(companySettings).values({ companyId, ...merged }).returning();
  return presentCompanySettings(saved);
}
