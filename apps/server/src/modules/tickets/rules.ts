import { ACTIVE_TICKET_STATUSES, type Channel } from '@balcao/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { companySettings, contactTags, queues, tickets } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import type { Viewer } from './visibility.js';

/**
 * The rules ticket creation and the transitions share (spec 2 §4, §6). Visibility
 * itself (who may see and so act on a ticket) stays in visibility.ts.
 */

/** The status a ticket takes when someone holds it: `group` for a WhatsApp group, else `open`. */
export const liveStatusFor = (t: { isGroup: boolean; channel: Channel }) => (t.isGroup && t.channel === 'whatsapp' ? 'group' : 'open');

/**
 * Closing a pending (or lgpd) ticket without attending it — "Ignore", and the close
 * button of a pending card — is for admins, users with userClosePendingTicket (ignore)
 * and users with showDashboard (the card). Both reach the server as the same request,
 * so one rule holds either flag.
 */
export const mayClosePending = (v: Viewer) => v.isAdmin || v.userClosePendingTicket || v.showDashboard;

/**
 * A queue the viewer puts a ticket in by their own choice (new ticket, accept or reopen
 * with the queue-choice modal): the company's (404), and for a plain user one of their own
 * queues (403). Transfers may target any queue of the company.
 */
export async function assertMayUseQueue(db: DbOrTx, v: Viewer, queueId: number): Promise<void> {
  await assertCompanyQueue(db, v.companyId, queueId);
  if (!v.isAdmin && !v.queueIds.includes(queueId)) throw new AppError('ERR_NO_PERMISSION', 403);
}

export async function assertCompanyQueue(db: DbOrTx, companyId: number, queueId: number): Promise<void> {
  const [queue] = await db
    .select({ id: queues.id })
    .from(queues)
    .where(and(eq(queues.companyId, companyId), eq(queues.id, queueId)));
  if (!queue) throw new AppError('ERR_NO_QUEUE_FOUND', 404);
}

/** The contact's live ticket on the connection (at most one: the partial unique index). */
export async function liveTicketId(db: DbOrTx, contactId: number, whatsappId: number): Promise<number | undefined> {
  const [row] = await db
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.contactId, contactId), eq(tickets.whatsappId, whatsappId), inArray(tickets.status, [...ACTIVE_TICKET_STATUSES])));
  return row?.id;
}

/** The company settings the transitions read (greeting after accept, transfer message, required tag). */
export async function transitionSettings(db: DbOrTx, companyId: number) {
  const [row] = await db
    .select({
      sendGreetingAccepted: companySettings.sendGreetingAccepted,
      greetingAcceptedMessage: companySettings.greetingAcceptedMessage,
      sendMsgTransfTicket: companySettings.sendMsgTransfTicket,
      transferMessage: companySettings.transferMessage,
      requiredTag: companySettings.requiredTag,
      closeTicketOnTransfer: companySettings.closeTicketOnTransfer,
    })
    .from(companySettings)
    .where(eq(companySettings.companyId, companyId));
  return row;
}

export async function contactHasTags(db: DbOrTx, contactId: number): Promise<boolean> {
  const [row] = await db.select({ tagId: contactTags.tagId }).from(contactTags).where(eq(contactTags.contactId, contactId)).limit(1);
  return !!row;
}
