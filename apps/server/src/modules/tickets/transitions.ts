import { type Ticket, type updateTicketBody } from '@balcao/contracts';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { users, whatsapps } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { acceptTicket, closeTicket, reopenTicket, returnTicket, setTicketIntegration, transferTicket } from '../conversations/commands/tickets.js';
import { queueOutgoing } from '../conversations/outbound.js';
import { sendConnectionMessage } from '../conversations/behaviours/send.js';
import type { TicketRow } from './presenter.js';
import { findTicketRow, isUniqueViolation, loadTicket } from './queries.js';
import { assertCompanyQueue, assertMayUseQueue, contactHasTags, liveStatusFor, liveTicketId, mayClosePending, transitionSettings } from './rules.js';
import { assertCanSeeTicket, loadViewer, type Viewer } from './visibility.js';

type UpdateBody = z.output<typeof updateTicketBody>;

/** The actions of `PUT /tickets/{id}` (spec 2 §4). */
export type TicketAction = 'accept' | 'reopen' | 'resolve' | 'ignore' | 'return' | 'transfer' | 'integration' | 'none';

const conflict = (code: 'ERR_INVALID_TRANSITION' | 'ERR_TICKET_ALREADY_ACCEPTED') => new AppError(code, 409);

/** Taking a ticket someone else already holds. */
const isLateAccept = (ticket: Pick<TicketRow, 'status' | 'userId'>, body: UpdateBody, byId: number) =>
  !body.isTransfered &&
  (body.status === 'open' || body.status === 'group') &&
  (ticket.status === 'open' || ticket.status === 'group') &&
  ticket.userId !== byId;

/**
 * Reads the action from the request and the ticket's current status. Clients send the
 * target status (and the transfer flag); a target the current status cannot reach is a
 * 409 ERR_INVALID_TRANSITION, an open ticket someone else holds 409 ERR_TICKET_ALREADY_ACCEPTED.
 */
export function actionOf(ticket: Pick<TicketRow, 'status' | 'userId'>, body: UpdateBody, byId: number): TicketAction {
  if (body.isTransfered) return 'transfer';
  const from = ticket.status;
  switch (body.status) {
    case undefined:
      if (body.useIntegration !== undefined) return 'integration';
      throw new AppError('ERR_INVALID_TRANSITION', 400, 'nothing to do: send a status, isTransfered or useIntegration');
    case 'closed':
      if (from === 'pending' || from === 'lgpd') return 'ignore';
      if (from === 'open' || from === 'group' || from === 'nps') return 'resolve';
      throw conflict('ERR_INVALID_TRANSITION');
    case 'open':
    case 'group':
      if (from === 'pending') return 'accept';
      if (from === 'closed') return 'reopen';
      if (from === 'open' || from === 'group') {
        if (isLateAccept(ticket, body, byId)) throw conflict('ERR_TICKET_ALREADY_ACCEPTED');
        return 'none';
      }
      throw conflict('ERR_INVALID_TRANSITION');
    case 'pending':
      if (from === 'open') return 'return';
      throw conflict('ERR_INVALID_TRANSITION');
    default:
      throw new AppError('ERR_INVALID_TRANSITION', 400, `a ticket cannot be set to ${body.status} by hand`);
  }
}

/**
 * `PUT /tickets/{id}`: one explicit transition per action, each guarded by the ticket's
 * visibility (403) plus its own rule, written with a conditional UPDATE on the expected
 * status (the loser of a race gets 409 and nothing changes) and one ticket-log entry in
 * the same transaction; the events go out after the commit. Answers the resulting
 * ticket — for a reopen that meets the contact's other live ticket, that ticket.
 */
export async function updateTicket(ctx: AppContext, by: AuthUser, ticketId: number, body: UpdateBody): Promise<Ticket> {
  const ticket = await findTicketRow(ctx.db, by.companyId, ticketId);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND', 404);
  const viewer = await loadViewer(ctx.db, by);
  // Accepting a ticket someone took a moment ago: say so, rather than 403 for a ticket now out of sight.
  if (isLateAccept(ticket, body, viewer.id)) throw conflict('ERR_TICKET_ALREADY_ACCEPTED');
  assertCanSeeTicket(viewer, ticket);

  const t = { ctx, viewer, ticket, body };
  let resultId = ticket.id;
  switch (actionOf(ticket, body, viewer.id)) {
    case 'accept':
      await accept(t);
      break;
    case 'reopen':
      resultId = await reopen(t);
      break;
    case 'resolve':
      await resolve(t);
      break;
    case 'ignore':
      if (!mayClosePending(viewer)) throw new AppError('ERR_NO_PERMISSION', 403);
      await closeTicket(ctx, { companyId: ticket.companyId, ticketId: ticket.id, sendFarewell: false, userId: viewer.id, from: ['pending', 'lgpd'] });
      break;
    case 'return':
      if (!(await returnTicket(ctx, ticket, viewer.id))) throw conflict('ERR_INVALID_TRANSITION');
      break;
    case 'transfer':
      resultId = await transfer(t);
      break;
    case 'integration':
    case 'none':
      break;
  }
  // Not on the contact's other ticket a reopen answered with.
  if (body.useIntegration !== undefined && resultId === ticket.id) await setTicketIntegration(ctx, ticket, body.useIntegration);
  const result = await loadTicket(ctx.db, resultId);
  if (!result) throw new AppError('ERR_NO_TICKET_FOUND', 404);
  return result;
}

interface Transition {
  ctx: AppContext;
  viewer: Viewer;
  ticket: TicketRow;
  body: UpdateBody;
}

/** The queue a ticket is taken into: the one chosen (checked), else its own, else 400 ERR_QUEUE_REQUIRED. */
async function chosenQueue(t: Transition): Promise<number> {
  const chosen = t.body.queueId;
  if (chosen && chosen !== t.ticket.queueId) {
    await assertMayUseQueue(t.ctx.db, t.viewer, chosen);
    return chosen;
  }
  if (!t.ticket.queueId) throw new AppError('ERR_QUEUE_REQUIRED', 400);
  return t.ticket.queueId;
}

/**
 * Accept: pending → open (group for a WhatsApp group), owned by the acting user, with a
 * queue. Two attendants accepting at once: the conditional UPDATE lets exactly one win;
 * the other gets 409 ERR_TICKET_ALREADY_ACCEPTED. Then the greeting-after-accept.
 */
async function accept(t: Transition): Promise<void> {
  const queueId = await chosenQueue(t);
  if (!(await acceptTicket(t.ctx, t.ticket, { by: t.viewer.id, queueId, status: liveStatusFor(t.ticket) }))) {
    const now = await findTicketRow(t.ctx.db, t.ticket.companyId, t.ticket.id);
    throw conflict(now && (now.status === 'open' || now.status === 'group') ? 'ERR_TICKET_ALREADY_ACCEPTED' : 'ERR_INVALID_TRANSITION');
  }
  await sendGreetingAccepted(t);
}

/**
 * spec 2 §4 "Greeting after accept": sendGreetingAccepted on, a non-empty
 * greetingAcceptedMessage, and not a group kept out of the ticket flow (groups only when
 * their connection has groupAsTicket on). Variables are filled by sendConnectionMessage.
 */
async function sendGreetingAccepted(t: Transition): Promise<void> {
  const settings = await transitionSettings(t.ctx.db, t.ticket.companyId);
  if (settings?.sendGreetingAccepted !== 'enabled' || !settings.greetingAcceptedMessage.trim()) return;
  if (t.ticket.isGroup) {
    const [connection] = t.ticket.whatsappId
      ? await t.ctx.db.select({ groupAsTicket: whatsapps.groupAsTicket }).from(whatsapps).where(eq(whatsapps.id, t.ticket.whatsappId))
      : [];
    if (connection?.groupAsTicket !== 'enabled') return;
  }
  await sendConnectionMessage(t.ctx, t.ticket.id, settings.greetingAcceptedMessage);
}

/**
 * Reopen: closed → open (group for groups) for the acting user, with a queue. When the
 * contact already has another live ticket on that connection, nothing changes and that
 * ticket is the answer (clients show who holds it); the unique index settles a race.
 */
async function reopen(t: Transition): Promise<number> {
  const queueId = await chosenQueue(t);
  const other = () => (t.ticket.whatsappId ? liveTicketId(t.ctx.db, t.ticket.contactId, t.ticket.whatsappId) : Promise.resolve(undefined));
  const existing = await other();
  if (existing) return existing;
  try {
    if (!(await reopenTicket(t.ctx, t.ticket, { by: t.viewer.id, queueId, status: liveStatusFor(t.ticket) }))) throw conflict('ERR_INVALID_TRANSITION');
  } catch (err) {
    const winner = isUniqueViolation(err) ? await other() : undefined;
    if (winner) return winner;
    throw err;
  }
  return t.ticket.id;
}

/**
 * Resolve: open, group (or nps, to stop waiting for the rating) → closed, with or without
 * the farewell. With the company's requiredTag on, a contact without tags is refused
 * (400 ERR_REQUIRED_TAG) and nothing changes.
 */
async function resolve(t: Transition): Promise<void> {
  const { ctx, ticket } = t;
  const settings = await transitionSettings(ctx.db, ticket.companyId);
  if (settings?.requiredTag === 'enabled' && !(await contactHasTags(ctx.db, ticket.contactId))) throw new AppError('ERR_REQUIRED_TAG', 400);
  await closeTicket(ctx, {
    companyId: ticket.companyId,
    ticketId: ticket.id,
    sendFarewell: t.body.sendFarewellMessage !== false,
    userId: t.viewer.id,
    from: ['open', 'group', 'nps'],
  });
}

/**
 * Transfer: to a queue of the company (required) and optionally one of its users; with a
 * user the ticket is open (group for groups), without one pending. Logs 'transfered' (the
 * acting user, the destination queue) and 'receivedTransfer' (the receiving user). The
 * note `msgTransfer` becomes a private message; with sendMsgTransfTicket on, the
 * transferMessage goes to the customer. With the company's closeTicketOnTransfer on, the
 * ticket is closed and the conversation goes on in a new ticket at the destination (each
 * queue keeps its own ticket, history and rating); the answer is that new ticket.
 */
async function transfer(t: Transition): Promise<number> {
  const { ctx, ticket, body } = t;
  if (!body.queueId) throw new AppError('ERR_QUEUE_REQUIRED', 400);
  const queueId = body.queueId;
  await assertCompanyQueue(ctx.db, ticket.companyId, queueId);
  const userId = body.userId ?? null;
  if (userId) {
    const [user] = await ctx.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.companyId, ticket.companyId), eq(users.id, userId)));
    if (!user) throw new AppError('ERR_NO_USER_FOUND', 404);
  }
  const settings = await transitionSettings(ctx.db, ticket.companyId);
  const resultId = await transferTicket(ctx, ticket, {
    by: t.viewer.id,
    queueId,
    userId,
    status: liveStatusFor(ticket),
    closeOnTransfer: settings?.closeTicketOnTransfer === 'enabled',
  });
  if (resultId === undefined) throw conflict('ERR_INVALID_TRANSITION');

  if (settings?.sendMsgTransfTicket === 'enabled' && settings.transferMessage.trim() && !ticket.isGroup) {
    await sendConnectionMessage(ctx, resultId, settings.transferMessage);
  }
  const note = body.msgTransfer?.trim();
  if (note) await queueOutgoing(ctx, { companyId: ticket.companyId, ticketId: resultId, body: note, isPrivate: true });
  return resultId;
}
