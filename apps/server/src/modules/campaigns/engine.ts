import { CAMPAIGN_CONFIRMATION_FIELDS, CAMPAIGN_MESSAGE_FIELDS, type CampaignSettings } from '@balcao/contracts';
import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { campaignShipping, campaigns, whatsapps } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { inLanes } from '../../jobs/lanes.js';
import { queueOutgoingBatch, type BatchOutgoing } from '../conversations/outbound-batch.js';
import { upsertContact, upsertContacts } from '../contacts/queries.js';
import { findOrCreateTickets } from '../conversations/commands/ticket-rows.js';
import { writeTicketLogs } from '../tickets/logs.js';
import { mediaOf } from '../schedules/engine.js';
import { ticketFor } from '../schedules/tickets.js';
import { nextSendAfter, nextWindowStart } from './pacing.js';
import { announceCampaign, type CampaignRow } from './queries.js';
import { readCampaignSettings } from './settings.js';
import { fillCampaignText, pickVariant } from './variables.js';

/*
 * The campaign engine (issue 17). A campaign's `nextRunAt` says when it may send next; a
 * tick claims it by moving `nextRunAt` a lease ahead in one conditional UPDATE, so one
 * process at a time works a campaign. A PROGRAMADA campaign due at its `scheduledAt` turns
 * EM_ANDAMENTO and gets one shipping row per number (UNIQUE campaign + number). A message
 * is stored in the outbox in the same transaction that marks its shipping row, on the
 * condition that the row is still unmarked and the campaign still EM_ANDAMENTO: two
 * processes, a lease that lapsed or a kill -9 can therefore never send a number twice, and a
 * cancel either lands before a batch (nothing of it is sent) or after it. Sending itself is the
 * outbox's: its sweeper finishes what a dead process stored.
 */

export const CAMPAIGN_TICK_JOB = 'campaign-tick';
export const CAMPAIGN_SWEEP_JOB = 'campaign-sweep';
const LEASE_MS = 60_000;
/** Messages per batch when there is no interval between messages. */
const BURST = 200;
const PREPARE_LANES = 8;

/** Queues the campaign's next tick at its `nextRunAt`; without a job queue (most tests) the sweep or a direct call runs it. */
export async function wakeCampaign(ctx: AppContext, row: Pick<CampaignRow, 'id' | 'status' | 'nextRunAt'>): Promise<void> {
  if (!ctx.boss || !row.nextRunAt || (row.status !== 'PROGRAMADA' && row.status !== 'EM_ANDAMENTO')) return;
  await ctx.boss
    .send(CAMPAIGN_TICK_JOB, { id: row.id }, { startAfter: row.nextRunAt, singletonKey: `${row.id}@${row.nextRunAt.toISOString()}` })
    .catch((err: unknown) => ctx.log.warn({ err, campaignId: row.id }, 'could not queue the campaign; the minute sweep runs it'));
}

/** Every campaign due by `now` (a lost job, a restart): ticked one after another. */
export async function sweepCampaigns(ctx: AppContext, now = new Date()): Promise<void> {
  const due = await ctx.db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(and(inArray(campaigns.status, ['PROGRAMADA', 'EM_ANDAMENTO']), lte(campaigns.nextRunAt, now)))
    .orderBy(asc(campaigns.nextRunAt))
    .limit(100);
  for (const { id } of due) await runCampaign(ctx, id, now);
}

/** One tick of a campaign: start it if due, send what the pacing allows now, and set when it may send next. */
export async function runCampaign(ctx: AppContext, id: number, now = new Date()): Promise<void> {
  const [claimed] = await ctx.db
    .update(campaigns)
    .set({ nextRunAt: new Date(now.getTime() + LEASE_MS) })
    .where(and(eq(campaigns.id, id), inArray(campaigns.status, ['PROGRAMADA', 'EM_ANDAMENTO']), lte(campaigns.nextRunAt, now)))
    .returning();
  if (!claimed) return;
  let row = claimed;
  if (row.status === 'PROGRAMADA') row = await start(ctx, row);
  const settings = await readCampaignSettings(ctx.db, row.companyId);
  const windowAt = nextWindowStart(now, settings);
  if (windowAt > now) return release(ctx, row, windowAt, row.sentSinceBreak);

  const burst = settings.messageInterval === 0;
  let sentSinceBreak = row.sentSinceBreak;
  for (;;) {
    const sent = await sendBatch(ctx, row, settings, burst ? BURST : 1, now);
    if (sent === undefined) return finishIfDone(ctx, row, now);
    if (sent === 0) return; // cancelled or deleted meanwhile
    sentSinceBreak += sent;
    if (!burst) {
      const next = nextSendAfter(now, settings, sentSinceBreak);
      return release(ctx, row, next.at, next.sentSinceBreak);
    }
    // Without intervals the tick keeps the campaign while its lease lasts, renewing it per batch.
    const renewed = await ctx.db
      .update(campaigns)
      .set({ nextRunAt: new Date(Math.max(Date.now(), now.getTime()) + LEASE_MS), sentSinceBreak })
      .where(and(eq(campaigns.id, row.id), eq(campaigns.status, 'EM_ANDAMENTO')))
      .returning({ id: campaigns.id });
    if (renewed.length === 0) return;
    await announceCampaign(ctx, row.companyId, row.id);
  }
}

/** PROGRAMADA → EM_ANDAMENTO, with a shipping row for every recipient. */
async function start(ctx: AppContext, row: CampaignRow): Promise<CampaignRow> {
  await fillShipping(ctx.db, row);
  const [started] = await ctx.db
    .update(campaigns)
    .set({ status: 'EM_ANDAMENTO', sentSinceBreak: 0 })
    .where(and(eq(campaigns.id, row.id), eq(campaigns.status, 'PROGRAMADA')))
    .returning();
  await announceCampaign(ctx, row.companyId, row.id);
  return started ?? row;
}

/**
 * A shipping row per recipient not yet there (so a restart adds people who joined the list
 * meanwhile and keeps everyone else's state): the list's items whose number is not known to
 * lack WhatsApp (on a WhatsApp connection), or the tag's contacts on the connection's channel.
 */
export async function fillShipping(db: DbOrTx, row: CampaignRow): Promise<void> {
  const [connection] = row.whatsappId ? await db.select({ channel: whatsapps.channel }).from(whatsapps).where(eq(whatsapps.id, row.whatsappId)) : [];
  const channel = connection?.channel ?? 'whatsapp';
  if (row.contactListId) {
    await db.execute(sql`
      INSERT INTO campaign_shipping (company_id, campaign_id, number, name, email)
      SELECT ${row.companyId}, ${row.id}, number, name, email FROM contact_list_items
      WHERE contact_list_id = ${row.contactListId} AND company_id = ${row.companyId}
        AND (${channel} <> 'whatsapp' OR is_whatsapp_valid IS NOT FALSE)
      ORDER BY id
      ON CONFLICT (campaign_id, number) DO NOTHING`);
  } else if (row.tagListId) {
    await db.execute(sql`
      INSERT INTO campaign_shipping (company_id, campaign_id, number, name, email, contact_id)
      SELECT ${row.companyId}, ${row.id}, c.number, c.name, c.email, c.id FROM contacts c
      JOIN contact_tags ct ON ct.contact_id = c.id
      WHERE ct.tag_id = ${row.tagListId} AND c.company_id = ${row.companyId} AND c.channel = ${channel} AND NOT c.is_group
      ORDER BY c.id
      ON CONFLICT (campaign_id, number) DO NOTHING`);
  }
}

/** Sets when the campaign may send next (if it still runs) and queues that tick. */
async function release(ctx: AppContext, row: CampaignRow, at: Date, sentSinceBreak: number): Promise<void> {
  const [saved] = await ctx.db
    .update(campaigns)
    .set({ nextRunAt: at, sentSinceBreak })
    .where(and(eq(campaigns.id, row.id), eq(campaigns.status, 'EM_ANDAMENTO')))
    .returning();
  if (saved) await wakeCampaign(ctx, saved);
  await announceCampaign(ctx, row.companyId, row.id);
}

/** Nothing left to send: FINALIZADA (answers to confirmation requests still get their message, see confirmation.ts). */
async function finishIfDone(ctx: AppContext, row: CampaignRow, now: Date): Promise<void> {
  const finished = await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .update(campaigns)
      .set({ status: 'FINALIZADA', completedAt: now, nextRunAt: null })
      .where(and(eq(campaigns.id, row.id), eq(campaigns.status, 'EM_ANDAMENTO')))
      .returning({ id: campaigns.id, name: campaigns.name, status: campaigns.status });
    await ctx.events.record(tx, { type: 'campaign.finished', campaignIds: rows.map((r) => r.id) });
    return rows;
  });
  // Only the call that made the transition tells the outbound webhooks (docs/webhooks.md).
  for (const campaign of finished) await ctx.events.publish({ type: 'campaign.finished', companyId: row.companyId, campaign });
  await announceCampaign(ctx, row.companyId, row.id);
}

type ShippingRow = typeof campaignShipping.$inferSelect;
const unsent = and(isNull(campaignShipping.deliveredAt), isNull(campaignShipping.confirmationRequestedAt), isNull(campaignShipping.error));

/**
 * Up to `limit` of the campaign's unsent numbers: each gets its contact and ticket, then all
 * their messages go to the outbox in one transaction with their shipping marks. Answers how
 * many were sent (0: the campaign stopped meanwhile), or undefined when none was left.
 */
async function sendBatch(ctx: AppContext, row: CampaignRow, settings: CampaignSettings, limit: number, now: Date): Promise<number | undefined> {
  const due = await ctx.db
    .select()
    .from(campaignShipping)
    .where(and(eq(campaignShipping.campaignId, row.id), unsent))
    .orderBy(asc(campaignShipping.id))
    .limit(limit);
  if (due.length === 0) return undefined;
  const [connection] = row.whatsappId ? await ctx.db.select().from(whatsapps).where(eq(whatsapps.id, row.whatsappId)) : [];
  if (!connection || connection.companyId !== row.companyId) {
    await markFailed(ctx.db, due, 'ERR_NO_WAPP_FOUND');
    return due.length;
  }
  const prepared = await prepareAll(ctx, row, settings, connection, due);
  const failed = prepared.filter((p): p is Failed => 'error' in p);
  for (const f of failed) await markFailed(ctx.db, [f.shipping], f.error);
  const ready = prepared.filter((p): p is Prepared => 'message' in p);
  if (ready.length === 0) return failed.length;
  const stopped = new Error('campaign stopped');
  try {
    await queueOutgoingBatch(
      ctx,
      row.companyId,
      ready.map((p) => p.message),
      (tx, stored) => markSent(tx, row, ready, stored, now, stopped),
      { awaitSends: true },
    );
  } catch (err) {
    if (err === stopped) return 0;
    throw err;
  }
  return ready.length + failed.length;
}

interface Prepared {
  shipping: ShippingRow;
  message: BatchOutgoing;
  contactId: number;
  ticketId: number;
  confirmation: boolean;
}
type Failed = { shipping: ShippingRow; error: string };
type Connection = typeof whatsapps.$inferSelect;

const failedWith = (shipping: ShippingRow, err: unknown): Failed => ({ shipping, error: err instanceof AppError ? err.code : String(err) });
/** The campaign opens each ticket for a user (createTicket, with its checks and conflicts): one shipping at a time. */
const opensForOwner = (row: CampaignRow) => row.openTicket === 'enabled' && row.statusTicket === 'open' && !!row.userId && !!row.queueId;

/**
 * Each shipping's contact and ticket. For a batch, set-based: the contacts in one read and one
 * write, the live tickets in one read and the new ones in one insert (with their `create` logs),
 * instead of four to five statements per number; a campaign that opens tickets for a user goes
 * one shipping at a time, as the schedules do.
 */
async function prepareAll(ctx: AppContext, row: CampaignRow, settings: CampaignSettings, connection: Connection, due: ShippingRow[]): Promise<(Prepared | Failed)[]> {
  if (opensForOwner(row)) return inLanes(due, PREPARE_LANES, (s) => prepare(ctx, row, settings, connection, s).catch((err: unknown) => failedWith(s, err)));
  const contactOf = await upsertContacts(ctx.db, row.companyId, connection.channel, due.map((s) => contactInput(row, connection, s)));
  const active = [...contactOf.values()].filter((c) => c.active);
  const now = new Date();
  const carriers = await findOrCreateTickets(
    ctx.db,
    active.map((c) => ({ companyId: row.companyId, contactId: c.id, whatsappId: connection.id, channel: connection.channel, isGroup: false, status: 'pending' as const, queueId: row.queueId, firstMessageAt: now })),
  );
  const ticketOf = new Map(carriers.map((f, i) => [active[i]!.id, f]));
  const created = [...ticketOf.values()].filter((f) => f.created);
  await writeTicketLogs(
    ctx.db,
    created.map((f) => ({ companyId: row.companyId, ticketId: f.ticket.id, type: 'create' as const, queueId: row.queueId })),
  );
  return due.map((s) => {
    const contact = contactOf.get(s.number);
    const found = contact && ticketOf.get(contact.id);
    if (!contact?.active) return failedWith(s, new AppError('ERR_CONTACT_BLOCKED', 400));
    if (!found) return failedWith(s, new AppError('ERR_NO_TICKET_FOUND', 404));
    return preparedFor(row, settings, s, contact.id, found.ticket.id, found.created);
  });
}

const contactInput = (row: CampaignRow, connection: Connection, s: ShippingRow) => ({
  companyId: row.companyId,
  channel: connection.channel,
  number: s.number,
  name: s.name,
  remoteJid: connection.channel === 'whatsapp' ? `${s.number}@s.whatsapp.net` : s.number,
  isGroup: false,
});

/** One shipping's contact and ticket found or made (the campaign opens the ticket for its user). */
async function prepare(ctx: AppContext, row: CampaignRow, settings: CampaignSettings, connection: Connection, s: ShippingRow): Promise<Prepared> {
  const { contact } = await upsertContact(ctx.db, contactInput(row, connection, s));
  if (!contact.active) throw new AppError('ERR_CONTACT_BLOCKED', 400);
  const plan = { companyId: row.companyId, openTicket: row.openTicket, statusTicket: row.statusTicket, ticketUserId: row.userId, queueId: row.queueId };
  const { ticketId, openedHere } = await ticketFor(ctx, plan, contact, connection);
  return preparedFor(row, settings, s, contact.id, ticketId, openedHere);
}

/** The shipping's message: the confirmation request when the campaign asks for one, else a campaign message. */
function preparedFor(row: CampaignRow, settings: CampaignSettings, s: ShippingRow, contactId: number, ticketId: number, openedHere: boolean): Prepared {
  const confirmation = row.confirmation && CAMPAIGN_CONFIRMATION_FIELDS.some((f) => row[f]?.trim());
  const message = campaignMessage(row, settings, s, ticketId, confirmation);
  // A ticket opened only to carry the campaign is closed with it unless the campaign opens it (statusTicket), as the schedules do.
  message.closeTicket = openedHere && (row.openTicket === 'disabled' || row.statusTicket === 'closed');
  return { shipping: s, message, contactId, ticketId, confirmation };
}

/** A random filled variant, its variables filled; the campaign's media goes with the campaign message (not the confirmation request). */
export function campaignMessage(row: CampaignRow, settings: CampaignSettings, s: Pick<ShippingRow, 'name' | 'number' | 'email'>, ticketId: number, confirmation: boolean): BatchOutgoing {
  const fields = confirmation ? CAMPAIGN_CONFIRMATION_FIELDS : CAMPAIGN_MESSAGE_FIELDS;
  const text = pickVariant(fields.map((f) => row[f])) ?? '';
  const body = fillCampaignText(text, s, settings.variables);
  return { ticketId, body, media: !confirmation && row.mediaPath ? mediaOf(row.mediaPath) : undefined };
}

/** In the outbox's transaction: the campaign must still run and every row still be unmarked, else nothing of the batch is stored. */
async function markSent(tx: Tx, row: CampaignRow, ready: Prepared[], stored: { id: number; ticketId: number }[], now: Date, stopped: Error): Promise<void> {
  const [live] = await tx.select({ status: campaigns.status }).from(campaigns).where(eq(campaigns.id, row.id)).for('share');
  if (live?.status !== 'EM_ANDAMENTO') throw stopped;
  const messageOf = new Map(stored.map((m) => [m.ticketId, m.id]));
  if (ready.some((p) => !messageOf.has(p.ticketId))) throw new AppError('ERR_CREATING_MESSAGE', 500);
  const values = sql.join(
    ready.map((p) => sql`(${p.shipping.id}::int, ${messageOf.get(p.ticketId)!}::int, ${p.contactId}::int, ${p.ticketId}::int, ${p.confirmation}::boolean)`),
    sql`, `,
  );
  const marked = await tx.execute(sql`
    UPDATE campaign_shipping s SET
      contact_id = v.contact_id,
      ticket_id = v.ticket_id,
      message_id = CASE WHEN v.confirmation THEN s.message_id ELSE v.message_id END,
      delivered_at = CASE WHEN v.confirmation THEN s.delivered_at ELSE ${now} END,
      confirmation_message_id = CASE WHEN v.confirmation THEN v.message_id ELSE s.confirmation_message_id END,
      confirmation_requested_at = CASE WHEN v.confirmation THEN ${now} ELSE s.confirmation_requested_at END,
      updated_at = now()
    FROM (VALUES ${values}) AS v(id, message_id, contact_id, ticket_id, confirmation)
    WHERE s.id = v.id AND s.delivered_at IS NULL AND s.confirmation_requested_at IS NULL`);
  // Another process marked one of them first (its lease had lapsed): this batch is not stored at all.
  if (marked.rowCount !== ready.length) throw stopped;
}

async function markFailed(db: DbOrTx, rows: ShippingRow[], error: string): Promise<void> {
  await db
    .update(campaignShipping)
    .set({ error: error.slice(0, 500) })
    .where(
      inArray(
        campaignShipping.id,
        rows.map((r) => r.id),
      ),
    );
}
