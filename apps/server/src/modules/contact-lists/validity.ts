import { and, asc, desc, eq, gt, inArray, isNull } from 'drizzle-orm';
import { contactListItems, whatsapps } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { announceItem } from './events.js';
import { presentItem } from './queries.js';

/*
 * `isWhatsappValid` of list items, checked in the background through a connected WhatsApp
 * session of the company (its default one first): a pg-boss job per company, a batch of
 * numbers at a time, never blocking the save or the import. Without a connected session the
 * items stay unknown (null) until the next check is queued (a save, an import).
 */

export const VALIDITY_JOB = 'contact-list-validity';
const BATCH = 200;

/** Queues the company's check (one queued at a time per company); without a job queue (most tests), nothing. */
export async function queueValidityCheck(ctx: AppContext, companyId: number): Promise<void> {
  if (!ctx.boss) return;
  await ctx.boss
    .send(VALIDITY_JOB, { companyId }, { singletonKey: String(companyId) })
    .catch((err: unknown) => ctx.log.warn({ err, companyId }, 'could not queue the WhatsApp number check'));
}

/** Checks the company's unchecked numbers; answers how many got a verdict. */
export async function checkUncheckedNumbers(ctx: AppContext, companyId: number): Promise<number> {
  const [connection] = await ctx.db
    .select()
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.channel, 'whatsapp'), eq(whatsapps.status, 'CONNECTED')))
    .orderBy(desc(whatsapps.isDefault), asc(whatsapps.id))
    .limit(1);
  const adapter = ctx.channels.adapterFor('whatsapp');
  if (!connection || !adapter.checkNumbers) return 0;
  let checked = 0;
  for (let afterId = 0; ; ) {
    const rows = await ctx.db
      .select({ id: contactListItems.id, number: contactListItems.number })
      .from(contactListItems)
      .where(and(eq(contactListItems.companyId, companyId), isNull(contactListItems.isWhatsappValid), gt(contactListItems.id, afterId)))
      .orderBy(asc(contactListItems.id))
      .limit(BATCH);
    const last = rows[rows.length - 1];
    if (!last) return checked;
    afterId = last.id;
    const verdicts = await adapter.checkNumbers(connection, [...new Set(rows.map((r) => r.number))]);
    for (const valid of [true, false]) {
      const ids = rows.filter((r) => verdicts.get(r.number) === valid).map((r) => r.id);
      if (ids.length === 0) continue;
      const saved = await ctx.db
        .update(contactListItems)
        .set({ isWhatsappValid: valid })
        .where(and(eq(contactListItems.companyId, companyId), inArray(contactListItems.id, ids)))
        .returning();
      checked += saved.length;
      for (const row of saved) await announceItem(ctx, companyId, { action: 'update', record: presentItem(row) });
    }
    // Numbers the channel did not answer for stay unknown.
    if (rows.length < BATCH) return checked;
  }
}
