import { z } from 'zod';
import { optionalId } from './lenient.js';
import { ACTIVE_TICKET_STATUSES, ticketLogTypeSchema, ticketStatusSchema } from './tickets.js';


/**
 * `POST /tickets` (spec 2 §7): the new-ticket dialog. `companyId` may be sent but is
 * ignored (the caller's company is the truth); no `whatsappId` → the company's default connection.
 */
export const createTicketBody = z.object({
  contactId: z.coerce.number().int().positive(),
  queueId: optionalId.optional(),
  whatsappId: optionalId.optional(),
  userId: optionalId.optional(),
  status: z.literal('open').optional(),
});
export type CreateTicketBody = z.input<typeof createTicketBody>;

/**
 * `PUT /tickets/{id}`: every action of the conversation header speaks through it
 * (accept, resolve, return, transfer, ignore, reopen, integration toggle); the server
 * reads the action from the fields and the ticket's current status.
 */
export const updateTicketBody = z.object({
  status: ticketStatusSchema.optional(),
  userId: optionalId.optional(),
  queueId: optionalId.optional(),
  /** Transfer: flagged by the transfer dialog; `msgTransfer` is its internal note. */
  isTransfered: z.boolean().optional(),
  msgTransfer: z.string().max(5000).nullable().optional(),
  /** Resolve with or without the farewell (and the rating question). */
  sendFarewellMessage: z.boolean().optional(),
  /** Sent by the ignore action; accepted and unused (Balcão keeps no bot-queue counter on the ticket). */
  amountUsedBotQueues: z.coerce.number().int().min(0).optional(),
  useIntegration: z.boolean().optional(),
});
export type UpdateTicketBody = z.input<typeof updateTicketBody>;

/** `POST /tickets/closeAll`: the admin's close-all of one inbox tab, within the selected queues. */
export const closeAllTicketsBody = z.object({
  status: z.enum(ACTIVE_TICKET_STATUSES),
  selectedQueueIds: z.array(z.coerce.number().int().positive()).max(1000),
});
export type CloseAllTicketsBody = z.input<typeof closeAllTicketsBody>;
export const closeAllTicketsResponse = z.object({ count: z.number() });

/** One entry of `GET /tickets-log/{ticketId}` (a bare array, oldest first). */
export const ticketLogSchema = z.object({
  id: z.number(),
  type: ticketLogTypeSchema,
  createdAt: z.string(),
  ticketId: z.number(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  queue: z.object({ id: z.number(), name: z.string(), color: z.string() }).nullable(),
});
export type TicketLog = z.infer<typeof ticketLogSchema>;
