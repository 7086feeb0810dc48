import { kanbanLanesResponse, kanbanTicketsQuery } from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { caller } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { requirePlanFlag } from '../../http/plan.js';
import { loadViewer } from '../tickets/visibility.js';
import { boardJson, listLanes } from './board.js';

/**
 * The kanban board's reads (spec 2 §7), for every user of a company whose plan has `useKanban`.
 * Cards move between lanes through the ticket tag calls (`DELETE /ticket-tags/{ticketId}`, then
 * `PUT /ticket-tags/{ticketId}/{tagId}`); the value is the contact's extra info `valor`.
 */
export function registerKanbanRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['kanban'];
  const guarded = { onRequest: authenticate, preHandler: requirePlanFlag('useKanban') };

  // The JSON text comes built by PostgreSQL in kanbanTicketsResponse's shape (board.ts) and is sent as it is:
  // no response schema to check and serialise it again (kanban.test.ts holds the shape).
  r.get('/ticket/kanban', { schema: { tags, querystring: kanbanTicketsQuery }, ...guarded }, async (req, reply) =>
    reply.type('application/json; charset=utf-8').send(await boardJson(ctx.db, await loadViewer(ctx.db, caller(req)), req.query)),
  );
  // The spec writes it with a trailing slash; the router ignores trailing slashes.
  r.get('/tag/kanban', { schema: { tags, response: { 200: kanbanLanesResponse } }, ...guarded }, async (req) => listLanes(ctx.db, caller(req).companyId));
}
