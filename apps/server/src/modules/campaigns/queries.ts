import type { Campaign, CampaignReport } from '@balcao/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { campaignShipping, campaigns, contactLists, whatsapps } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';

export type CampaignRow = typeof campaigns.$inferSelect;
export const campaignNotFound = () => new AppError('ERR_NO_CAMPAIGN_FOUND', 404);

type Named = { id: number; name: string } | null;

export function presentCampaign(row: CampaignRow, contactList: Named, whatsapp: Named): Campaign {
  const { nextRunAt: _next, sentSinceBreak: _sent, ...rest } = row;
  return {
    ...rest,
    scheduledAt: row.scheduledAt?.toISOString() ?? null,
    completedAt: row.completedAt?.toISOString() ?? null,
    contactList,
    whatsapp,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The campaigns of `rows` with their list and connection names (two queries for any number of rows). */
export async function presentCampaigns(db: DbOrTx, rows: CampaignRow[]): Promise<Campaign[]> {
  const listIds = [...new Set(rows.flatMap((r) => (r.contactListId ? [r.contactListId] : [])))];
  const connIds = [...new Set(rows.flatMap((r) => (r.whatsappId ? [r.whatsappId] : [])))];
  const lists = listIds.length ? await db.select({ id: contactLists.id, name: contactLists.name }).from(contactLists).where(inArray(contactLists.id, listIds)) : [];
  const conns = connIds.length ? await db.select({ id: whatsapps.id, name: whatsapps.name }).from(whatsapps).where(inArray(whatsapps.id, connIds)) : [];
  const listOf = new Map(lists.map((l) => [l.id, l]));
  const connOf = new Map(conns.map((c) => [c.id, c]));
  return rows.map((r) => presentCampaign(r, listOf.get(r.contactListId ?? 0) ?? null, connOf.get(r.whatsappId ?? 0) ?? null));
}

export async function findCampaign(db: DbOrTx, companyId: number, id: number): Promise<CampaignRow | undefined> {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.companyId, companyId), eq(campaigns.id, id)));
  return row;
}

/** The campaign with the report's figures (spec 3 §2 "Campaign report"), or undefined when it is not the company's. */
export async function loadCampaignReport(db: DbOrTx, companyId: number, id: number): Promise<CampaignReport | undefined> {
  const row = await findCampaign(db, companyId, id);
  if (!row) return undefined;
  const [campaign] = await presentCampaigns(db, [row]);
  const [figures] = await db
    .select({
      validContacts: sql<number>`count(*)::int`,
      confirmationRequested: sql<number>`count(${campaignShipping.confirmationRequestedAt})::int`,
      confirmed: sql<number>`count(${campaignShipping.confirmedAt})::int`,
      delivered: sql<number>`count(${campaignShipping.deliveredAt})::int`,
    })
    .from(campaignShipping)
    .where(eq(campaignShipping.campaignId, id));
  // Before it starts there are no shipping rows yet: the list's valid (or unchecked) numbers are its contacts.
  const pending = row.status === 'INATIVA' || row.status === 'PROGRAMADA';
  const validContacts = pending ? await recipientsCount(db, row) : (figures?.validContacts ?? 0);
  return { ...campaign!, validContacts, confirmationRequested: figures?.confirmationRequested ?? 0, confirmed: figures?.confirmed ?? 0, delivered: figures?.delivered ?? 0 };
}

async function recipientsCount(db: DbOrTx, row: CampaignRow): Promise<number> {
  if (row.contactListId) {
    const [n] = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from contact_list_items where contact_list_id = ${row.contactListId} and company_id = ${row.companyId} and is_whatsapp_valid is not false`,
    ).then((r) => r.rows);
    return n?.n ?? 0;
  }
  if (row.tagListId) {
    const [n] = await db.execute<{ n: number }>(sql`select count(*)::int as n from contact_tags where tag_id = ${row.tagListId}`).then((r) => r.rows);
    return n?.n ?? 0;
  }
  return 0;
}

/** `company-{companyId}-campaign` with the campaign and its figures (the report follows it), to the admins. */
export async function announceCampaign(ctx: AppContext, companyId: number, id: number): Promise<CampaignReport | undefined> {
  const report = await loadCampaignReport(ctx.db, companyId, id);
  if (report) await ctx.events.publish({ type: 'campaign.record', companyId, name: 'campaign', payload: { action: 'update', record: report } });
  return report;
}
