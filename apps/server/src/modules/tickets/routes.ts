import {
  type Ticket,
  closeAllTicketsBody,
  closeAllTicketsResponse,
  createTicketBody,
  idParam,
  ticketLogSchema,
  ticketSchema,
  updateTicketBody,
} from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, requirePermission, type AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { contactMaskFor } from '../contacts/lgpd.js';
import { createTicket } from './create.js';
import { ticketForViewer } from './presenter.js';
import { listTicketLogs } from './logs.js';
import { closeAllTickets, deleteTicket } from './service.js';
import { updateTicket } from './transitions.js';

const params = z.object({ id: idParam });

/** The caller's view of a ticket: the contact's number masked for non-admins under lgpdHideNumber. */
async function asSeenBy(ctx: AppContext, by: AuthUser, ticket: Ticket): Promise<Ticket> {
  return ticketForViewer(ticket, await contactMaskFor(ctx.db, by));
}

/**
 * Ticket writes: creation, the transitions of `PUT /tickets/{id}`, delete, close-all,
 * and the ticket log. Each checks company and visibility in its service.
 */
export function registerTicketRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['tickets'];

  // 409 "Ticket creation conflict" (spec 2 §8): `error` holds the live ticket as a JSON string.
  r.post(
    '/tickets',
    { schema: { tags, body: createTicketBody, response: { 200: ticketSchema, 409: z.object({ error: z.string() }) } }, onRequest: authenticate },
    async (req, reply) => {
      const by = caller(req);
      const result = await createTicket(ctx, by, req.body);
      if ('conflict' in result) return reply.status(409).send({ error: JSON.stringify(await asSeenBy(ctx, by, result.conflict)) });
      return asSeenBy(ctx, by, result.ticket);
    },
  );

  r.post(
    '/tickets/closeAll',
    {
      schema: { tags, body: closeAllTicketsBody, response: { 200: closeAllTicketsResponse } },
      onRequest: authenticate,
      preHandler: requirePermission('tickets-manager:closeAll'),
    },
    async (req) => closeAllTickets(ctx, caller(req), req.body),
  );

  r.put('/tickets/:id', { schema: { tags, params, body: updateTicketBody, response: { 200: ticketSchema } }, onRequest: authenticate }, async (req) => {
    const by = caller(req);
    return asSeenBy(ctx, by, await updateTicket(ctx, by, req.params.id, req.body));
  });

  r.delete('/tickets/:id', { schema: { tags, params, response: { 200: z.object({ message: z.string() }) } }, onRequest: authenticate }, async (req) => {
    await deleteTicket(ctx, caller(req), req.params.id);
    return { message: 'ticket deleted' };
  });

  r.get('/tickets-log/:id', { schema: { tags, params, response: { 200: z.array(ticketLogSchema) } }, onRequest: authenticate }, async (req) =>
    listTicketLogs(ctx, caller(req), req.params.id),
  );
}
