import { idParam, listTicketsQuery, ticketListResponse, ticketSchema, type Ticket } from '@balcao/contracts';
import { and, eq, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tickets } from '../../db/schema/index.js';
import { caller, type AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { contactMaskFor, maskFor } from '../contacts/lgpd.js';
import { listTickets } from './list-query.js';
import { ticketForViewer } from './presenter.js';
import { UUID_PATTERN, loadTickets } from './queries.js';
import { assertCanSeeTicket, loadViewer } from './visibility.js';

/** One ticket of the caller's company, if they may see it: 404 unknown (or another company's), 403 not visible. */
async function readTicket(ctx: AppContext, by: AuthUser, match: SQL): Promise<Ticket> {
  const [ticket] = await loadTickets(ctx.db, and(eq(tickets.companyId, by.companyId), match) as SQL);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND', 404);
  assertCanSeeTicket(await loadViewer(ctx.db, by), ticket);
  return ticketForViewer(ticket, await contactMaskFor(ctx.db, by));
}

/** The inbox list and single-ticket reads (spec 2 §7 Tickets); writes live in routes.ts. */
export function registerTicketListRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['tickets'];

  r.get('/tickets', { schema: { tags, querystring: listTicketsQuery, response: { 200: ticketListResponse } }, onRequest: authenticate }, async (req) => {
    const by = caller(req);
    const viewer = await loadViewer(ctx.db, by);
    const page = await listTickets(ctx.db, viewer, req.query);
    const mask = maskFor(viewer.isAdmin, viewer.companyHidesNumbers);
    return { ...page, tickets: page.tickets.map((ticket) => ticketForViewer(ticket, mask)) };
  });

  r.get(
    '/tickets/u/:uuid',
    { schema: { tags, params: z.object({ uuid: z.string() }), response: { 200: ticketSchema } }, onRequest: authenticate },
    async (req) => {
      // A malformed uuid names no ticket (and must not reach PostgreSQL's uuid cast).
      if (!UUID_PATTERN.test(req.params.uuid)) throw new AppError('ERR_NO_TICKET_FOUND', 404);
      return readTicket(ctx, caller(req), eq(tickets.uuid, req.params.uuid));
    },
  );

  r.get('/tickets/:id', { schema: { tags, params: z.object({ id: idParam }), response: { 200: ticketSchema } }, onRequest: authenticate }, async (req) =>
    readTicket(ctx, caller(req), eq(tickets.id, req.params.id)),
  );
}
