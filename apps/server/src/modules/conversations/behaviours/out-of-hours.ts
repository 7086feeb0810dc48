import { eq } from 'drizzle-orm';
import { companies, companySettings } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import type { Connection } from '../../../channels/adapter.js';
import { isWithinHours } from './hours.js';

/**
 * Whether the company is closed now by the hours its `scheduleType` names before the bot runs:
 * `company` — the company's hours (companies.schedules, the /settings schedules tab), `connection` —
 * the connection's own. `queue` is decided when the bot enters a queue (chatbot.ts); `disabled` never closes.
 * Either way the customer is answered with the connection's `outOfHoursMessage` (inbound.ts), as the
 * Whaticket family does for company hours too.
 */
export async function isOutOfHours(ctx: AppContext, connection: Connection, now: Date): Promise<boolean> {
  const [row] = await ctx.db
    .select({ scheduleType: companySettings.scheduleType, companyHours: companies.schedules })
    .from(companySettings)
    .innerJoin(companies, eq(companies.id, companySettings.companyId))
    .where(eq(companySettings.companyId, connection.companyId));
  if (row?.scheduleType === 'company') return !isWithinHours(row.companyHours, now);
  if (row?.scheduleType === 'connection') return !isWithinHours(connection.schedules, now);
  return false;
}
