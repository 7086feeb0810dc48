import type { contacts, whatsapps } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { inLanes } from '../../jobs/lanes.js';
import { findOrCreateTicket, findOrCreateTickets, type BulkTicketTarget } from '../conversations/commands/ticket-rows.js';
import { createTicket } from '../tickets/create.js';
import { writeTicketLogs } from '../tickets/logs.js';
import { liveStatusFor } from '../tickets/rules.js';
import { findAuthUser } from '../users/queries.js';

type ContactRow = typeof contacts.$inferSelect;
type ConnectionRow = typeof whatsapps.$inferSelect;

/** How the ticket carrying a message is opened (schedules and campaigns). */
export interface TicketPlan {
  companyId: number;
  openTicket: 'enabled' | 'disabled';
  statusTicket: 'open' | 'closed' | 'pending';
  ticketUserId: number | null;
  queueId: number | null;
}

export interface Carrier {
  ticketId: number;
  /** The ticket was opened to carry the message (not a conversation already under way). */
  openedHere: boolean;
}

/** With openTicket enabled, statusTicket open and a user and queue chosen, the ticket is opened for that user as `POST /tickets` would. */
const opensForOwner = (plan: TicketPlan) => plan.openTicket === 'enabled' && plan.statusTicket === 'open' && !!plan.ticketUserId && !!plan.queueId;

const targetOf = (plan: TicketPlan, contact: ContactRow, connection: ConnectionRow): BulkTicketTarget => ({
  companyId: plan.companyId,
  contactId: contact.id,
  whatsappId: connection.id,
  channel: connection.channel,
  isGroup: contact.isGroup,
  status: liveStatusFor({ isGroup: contact.isGroup, channel: connection.channel }) === 'group' ? 'group' : 'pending',
  queueId: plan.queueId,
  firstMessageAt: new Date(),
});

async function openForOwner(ctx: AppContext, plan: TicketPlan, contact: ContactRow, connection: ConnectionRow): Promise<Carrier> {
  const owner = await findAuthUser(ctx.db, plan.ticketUserId!);
  if (!owner || owner.companyId !== plan.companyId) throw new AppError('ERR_NO_USER_FOUND', 404);
  const result = await createTicket(ctx, owner, { contactId: contact.id, queueId: plan.queueId, whatsappId: connection.id, userId: owner.id, status: 'open' });
  return 'ticket' in result ? { ticketId: result.ticket.id, openedHere: true } : { ticketId: result.conflict.id, openedHere: false };
}

/**
 * The ticket that carries the message. With openTicket enabled, statusTicket open and
 * a user and queue chosen, the ticket is opened for that user as `POST /tickets` would
 * (or the contact's live ticket is used); otherwise the contact's live ticket, or a new
 * pending one in the plan's queue.
 */
export async function ticketFor(ctx: AppContext, plan: TicketPlan, contact: ContactRow, connection: ConnectionRow): Promise<Carrier> {
  if (opensForOwner(plan)) return openForOwner(ctx, plan, contact, connection);
  const target = targetOf(plan, contact, connection);
  const found = await findOrCreateTicket(ctx.db, { ...target, queueId: async () => plan.queueId, reopenWithinMinutes: 0 });
  if (found.created) await writeTicketLogs(ctx.db, [{ companyId: plan.companyId, ticketId: found.ticket.id, type: 'create', queueId: plan.queueId }]);
  return { ticketId: found.ticket.id, openedHere: found.created };
}

/**
 * `ticketFor` for a batch: the tickets opened for an owner one by one (a few at once), every other
 * one in set-based statements (`findOrCreateTickets`: one read, one INSERT) with their `create` logs in
 * one insert. Answers per item, in order: the carrier or the item's own error.
 */
export async function ticketsFor(
  ctx: AppContext,
  items: { plan: TicketPlan; contact: ContactRow; connection: ConnectionRow }[],
  lanes: number,
): Promise<(Carrier | { error: unknown })[]> {
  const answers: (Carrier | { error: unknown })[] = new Array(items.length);
  const owned = items.flatMap((item, i) => (opensForOwner(item.plan) ? [i] : []));
  await inLanes(owned, lanes, (i) =>
    openForOwner(ctx, items[i]!.plan, items[i]!.contact, items[i]!.connection).then(
      (carrier) => void (answers[i] = carrier),
      (error: unknown) => void (answers[i] = { error }),
    ),
  );
  const shared = items.flatMap((item, i) => (opensForOwner(item.plan) ? [] : [i]));
  if (shared.length === 0) return answers;
  try {
    const found = await findOrCreateTickets(
      ctx.db,
      shared.map((i) => targetOf(items[i]!.plan, items[i]!.contact, items[i]!.connection)),
    );
    const created = [...new Map(found.flatMap((f, k) => (f.created ? [[f.ticket.id, items[shared[k]!]!.plan] as const] : []))).entries()];
    await writeTicketLogs(
      ctx.db,
      created.map(([ticketId, plan]) => ({ companyId: plan.companyId, ticketId, type: 'create' as const, queueId: plan.queueId })),
    );
    found.forEach((f, k) => (answers[shared[k]!] = { ticketId: f.ticket.id, openedHere: f.created }));
  } catch (error) {
    for (const i of shared) answers[i] = { error };
  }
  return answers;
}
