import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { tickets } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import type { TicketRow } from '../tickets/presenter.js';
import { assertCanSeeTicket, type Viewer } from '../tickets/visibility.js';
import type { MessageRow } from './presenter.js';
import { findMessageRow } from './queries.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_ID = 2_147_483_647;

/** A ticket of the viewer's company named by id or uuid (`/messages/{ticketId}` takes both): 404 unknown, 403 not visible. */
export async function visibleTicket(db: DbOrTx, viewer: Viewer, ref: string): Promise<TicketRow> {
  const byId = /^\d{1,10}$/.test(ref) && Number(ref) <= MAX_ID ? eq(tickets.id, Number(ref)) : undefined;
  const key = byId ?? (UUID.test(ref) ? eq(tickets.uuid, ref) : undefined);
  const [ticket] = key ? await db.select().from(tickets).where(and(eq(tickets.companyId, viewer.companyId), key)) : [];
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND', 404);
  assertCanSeeTicket(viewer, ticket);
  return ticket;
}

/** A message of the viewer's company on a ticket the viewer may see: 404 unknown, 403 not visible. */
export async function visibleMessage(db: DbOrTx, viewer: Viewer, id: number): Promise<{ message: MessageRow; ticket: TicketRow }> {
  const message = await findMessageRow(db, viewer.companyId, id);
  if (!message) throw new AppError('ERR_NO_MESSAGE_FOUND', 404);
  const [ticket] = await db.select().from(tickets).where(eq(tickets.id, message.ticketId));
  if (!ticket) throw new AppError('ERR_NO_MESSAGE_FOUND', 404);
  assertCanSeeTicket(viewer, ticket);
  return { message, ticket };
}

/** Attendants write only in open or group tickets (spec 2 §4: the composer is enabled only then). */
export function assertComposerOpen(ticket: TicketRow): void {
  if (ticket.status !== 'open' && ticket.status !== 'group') throw new AppError('ERR_TICKET_NOT_OPEN', 400);
}
