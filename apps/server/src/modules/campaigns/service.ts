import {
  CAMPAIGNS_PAGE_SIZE,
  CAMPAIGN_MESSAGE_FIELDS,
  campaignEditable,
  type Campaign,
  type CampaignPage,
  type CampaignReport,
  type campaignBody,
  type PageQuery,
} from '@balcao/contracts';
import { and, count, desc, eq, ilike } from 'drizzle-orm';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { campaigns, contactLists, tags, users, whatsapps } from '../../db/schema/index.js';
import { containsPattern } from '../../db/search.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { assertCompanyQueue } from '../tickets/rules.js';
import { fillShipping, wakeCampaign } from './engine.js';
import { announceCampaign, campaignNotFound, findCampaign, loadCampaignReport, presentCampaigns, type CampaignRow } from './queries.js';

type Body = z.output<typeof campaignBody>;

/** `GET /campaigns`: 20 a page, newest first. */
export async function pageCampaigns(ctx: AppContext, by: AuthUser, q: PageQuery): Promise<CampaignPage> {
  const term = containsPattern(q.searchParam);
  const where = and(eq(campaigns.companyId, by.companyId), term ? ilike(campaigns.name, term) : undefined);
  const [total] = await ctx.db.select({ n: count() }).from(campaigns).where(where);
  const rows = await ctx.db
    .select()
    .from(campaigns)
    .where(where)
    .orderBy(desc(campaigns.id))
    .limit(CAMPAIGNS_PAGE_SIZE)
    .offset((q.pageNumber - 1) * CAMPAIGNS_PAGE_SIZE);
  const n = total?.n ?? 0;
  return { records: await presentCampaigns(ctx.db, rows), count: n, hasMore: q.pageNumber * CAMPAIGNS_PAGE_SIZE < n };
}

/** `GET /campaigns/{id}`: with the report's figures. */
export async function getCampaign(ctx: AppContext, by: AuthUser, id: number): Promise<CampaignReport> {
  const report = await loadCampaignReport(ctx.db, by.companyId, id);
  if (!report) throw campaignNotFound();
  return report;
}

/** Every id the body names must be the company's (404 as if it did not exist). */
async function assertRefs(db: DbOrTx, companyId: number, b: Body): Promise<void> {
  const owned = async (table: typeof contactLists | typeof tags | typeof whatsapps | typeof users, id: number) =>
    (await db.select({ id: table.id }).from(table).where(and(eq(table.companyId, companyId), eq(table.id, id)))).length > 0;
  if (b.contactListId && !(await owned(contactLists, b.contactListId))) throw new AppError('ERR_NO_CONTACT_LIST_FOUND', 404);
  if (b.tagListId && !(await owned(tags, b.tagListId))) throw new AppError('ERR_NO_TAG_FOUND', 404);
  if (b.whatsappId && !(await owned(whatsapps, b.whatsappId))) throw new AppError('ERR_NO_WAPP_FOUND', 404);
  if (b.userId && !(await owned(users, b.userId))) throw new AppError('ERR_NO_USER_FOUND', 404);
  if (b.queueId) await assertCompanyQueue(db, companyId, b.queueId);
}

const required = (path: string, message: string) => new AppError('ERR_VALIDATION', 400, `${path}: ${message}`, [{ path, message }]);

/** A scheduled campaign must be able to run: recipients, a connection and at least one message. */
function assertRunnable(b: Body): void {
  if (!b.scheduledAt) return;
  if (!b.contactListId && !b.tagListId) throw required('contactListId', 'Required');
  if (!b.whatsappId) throw required('whatsappId', 'Required');
  if (!CAMPAIGN_MESSAGE_FIELDS.some((f) => b[f]?.trim())) throw required('message1', 'Required');
}

/** `YYYY-MM-DD HH:mm:ss` is the server's local time; an ISO date keeps its offset. */
const scheduleOf = (text: string | null | undefined) => (text ? new Date(text.includes('T') ? text : text.replace(' ', 'T')) : null);

function valuesOf(b: Body) {
  const { companyId: _ignored, scheduledAt, ...rest } = b;
  const empty = (v: string | null | undefined) => (v?.trim() ? v : null);
  return {
    ...rest,
    ...Object.fromEntries(Object.entries(rest).filter(([k]) => k.startsWith('message') || k.startsWith('confirmationMessage')).map(([k, v]) => [k, empty(v as string)])),
    scheduledAt: scheduleOf(scheduledAt),
    contactListId: b.contactListId ?? null,
    tagListId: b.contactListId ? null : (b.tagListId ?? null),
    whatsappId: b.whatsappId ?? null,
    userId: b.openTicket === 'enabled' ? (b.userId ?? null) : null,
    queueId: b.openTicket === 'enabled' ? (b.queueId ?? null) : null,
  };
}

export async function announcedCampaign(ctx: AppContext, companyId: number, id: number): Promise<Campaign> {
  const report = await announceCampaign(ctx, companyId, id);
  if (!report) throw campaignNotFound();
  const { validContacts: _v, confirmationRequested: _r, confirmed: _c, delivered: _d, ...campaign } = report;
  return campaign;
}

/** `POST /campaigns`: with a schedule it is PROGRAMADA (the engine starts it then), else INATIVA. */
export async function createCampaign(ctx: AppContext, by: AuthUser, body: Body): Promise<Campaign> {
  await assertRefs(ctx.db, by.companyId, body);
  assertRunnable(body);
  const values = valuesOf(body);
  const [row] = await ctx.db
    .insert(campaigns)
    .values({ ...values, companyId: by.companyId, status: values.scheduledAt ? 'PROGRAMADA' : 'INATIVA', nextRunAt: values.scheduledAt })
    .returning();
  if (!row) throw campaignNotFound();
  await wakeCampaign(ctx, row);
  return announcedCampaign(ctx, by.companyId, row.id);
}

const notEditable = () => new AppError('ERR_CAMPAIGN_NOT_EDITABLE', 409);
const editable = (row: CampaignRow) => campaignEditable({ status: row.status, scheduledAt: row.scheduledAt?.toISOString() ?? null });

/**
 * `PUT /campaigns/{id}`: only while editable (INATIVA, PROGRAMADA more than an hour ahead,
 * CANCELADA); the row is locked and checked again, so a campaign the engine starts meanwhile
 * is not changed. INATIVA/PROGRAMADA follow the schedule; CANCELADA stays so until restarted.
 */
export async function updateCampaign(ctx: AppContext, by: AuthUser, id: number, body: Body): Promise<Campaign> {
  await assertRefs(ctx.db, by.companyId, body);
  assertRunnable(body);
  const values = valuesOf(body);
  const row = await ctx.db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(campaigns)
      .where(and(eq(campaigns.companyId, by.companyId), eq(campaigns.id, id)))
      .for('update');
    if (!current) throw campaignNotFound();
    if (!editable(current)) throw notEditable();
    const status = current.status === 'CANCELADA' ? 'CANCELADA' : values.scheduledAt ? 'PROGRAMADA' : 'INATIVA';
    const [saved] = await tx
      .update(campaigns)
      .set({ ...values, status, ...(status === 'CANCELADA' ? {} : { nextRunAt: values.scheduledAt }) })
      .where(eq(campaigns.id, id))
      .returning();
    return saved!;
  });
  await wakeCampaign(ctx, row);
  return announcedCampaign(ctx, by.companyId, id);
}

/** `DELETE /campaigns/{id}`: in any state; a running one stops before its next message (its rows are gone). */
export async function deleteCampaign(ctx: AppContext, by: AuthUser, id: number): Promise<void> {
  const [gone] = await ctx.db
    .delete(campaigns)
    .where(and(eq(campaigns.companyId, by.companyId), eq(campaigns.id, id)))
    .returning();
  if (!gone) throw campaignNotFound();
  if (gone.mediaPath) await ctx.storage.remove(by.companyId, gone.mediaPath);
  await ctx.events.publish({ type: 'campaign.record', companyId: by.companyId, name: 'campaign', payload: { action: 'delete', id } });
}

/** A user action of spec 3 §4: only from `from`, in one conditional UPDATE (a concurrent engine step cannot interleave). */
async function transition(ctx: AppContext, by: AuthUser, id: number, from: CampaignRow['status'], set: Partial<typeof campaigns.$inferInsert>): Promise<Campaign> {
  const [row] = await ctx.db
    .update(campaigns)
    .set(set)
    .where(and(eq(campaigns.companyId, by.companyId), eq(campaigns.id, id), eq(campaigns.status, from)))
    .returning();
  if (!row) {
    if (!(await findCampaign(ctx.db, by.companyId, id))) throw campaignNotFound();
    throw new AppError('ERR_INVALID_TRANSITION', 409, `only a ${from} campaign can do this`);
  }
  await wakeCampaign(ctx, row);
  return announcedCampaign(ctx, by.companyId, id);
}

/** `POST /campaigns/{id}/cancel`: EM_ANDAMENTO → CANCELADA; the engine sends nothing more (at most the message already in hand). */
export const cancelCampaign = (ctx: AppContext, by: AuthUser, id: number) => transition(ctx, by, id, 'EM_ANDAMENTO', { status: 'CANCELADA', nextRunAt: null });

/** `POST /campaigns/{id}/restart`: CANCELADA → EM_ANDAMENTO, continuing with the contacts not yet sent to. */
export async function restartCampaign(ctx: AppContext, by: AuthUser, id: number): Promise<Campaign> {
  const row = await findCampaign(ctx.db, by.companyId, id);
  // People who joined the list meanwhile are added first, so the engine never sees the campaign done before they are there.
  if (row?.status === 'CANCELADA') await fillShipping(ctx.db, row);
  return transition(ctx, by, id, 'CANCELADA', { status: 'EM_ANDAMENTO', nextRunAt: new Date(), completedAt: null });
}

/** The attachment (or none) of an editable campaign; answers the row as it was. */
export async function setCampaignMedia(ctx: AppContext, by: AuthUser, id: number, media: { mediaPath: string; mediaName: string } | null): Promise<CampaignRow> {
  return ctx.db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(campaigns)
      .where(and(eq(campaigns.companyId, by.companyId), eq(campaigns.id, id)))
      .for('update');
    if (!current) throw campaignNotFound();
    if (!editable(current)) throw notEditable();
    await tx
      .update(campaigns)
      .set(media ?? { mediaPath: null, mediaName: null })
      .where(eq(campaigns.id, id));
    return current;
  });
}

