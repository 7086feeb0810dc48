import {
  chartQuery,
  dashboardQuery,
  dashboardResponse,
  messagesAllMeQuery,
  messagesAllMeResponse,
  momentTicketSchema,
  momentsQuery,
  ticketsDayResponse,
  ticketsUsersResponse,
  userMomentSchema,
} from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, permissionGuard } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { loadViewer } from '../tickets/visibility.js';
import { assertManagementAccess } from './access.js';
import { messagesCount, ticketsPerDay, ticketsPerUser } from './charts.js';
import { listMoments, listUserMoments, momentsWindow } from './moments.js';
import { dashboardFigures } from './queries.js';
import { dayWindow, lastDays } from './window.js';

/**
 * Dashboard (showDashboard) and attendance panel (allowRealTime) reads, spec 2 §7. The dashboard's
 * figures cover the whole company: it is the management view of the company's service.
 */
export function registerDashboardRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['dashboard'];
  // Refused callers get 403 before their parameters are validated (permissionGuard).
  const dashboard = { onRequest: authenticate, preHandler: permissionGuard(async (req: FastifyRequest) => assertManagementAccess(ctx.db, caller(req), 'showDashboard')) };
  const panel = { onRequest: authenticate, preHandler: permissionGuard(async (req: FastifyRequest) => assertManagementAccess(ctx.db, caller(req), 'allowRealTime')) };

  r.get('/dashboard', { schema: { tags, querystring: dashboardQuery, response: { 200: dashboardResponse } }, ...dashboard }, async (req) => {
    const { companyId } = caller(req);
    const q = req.query;
    const w = q.date_from && q.date_to ? dayWindow(q.date_from, q.date_to) : lastDays(q.days ?? 1);
    return dashboardFigures(ctx.db, companyId, w);
  });

  r.get(
    '/dashboard/ticketsUsers',
    { schema: { tags, querystring: chartQuery, response: { 200: ticketsUsersResponse } }, ...dashboard },
    async (req) => ticketsPerUser(ctx.db, caller(req).companyId, dayWindow(req.query.initialDate, req.query.finalDate)),
  );

  r.get('/dashboard/ticketsDay', { schema: { tags, querystring: chartQuery, response: { 200: ticketsDayResponse } }, ...dashboard }, async (req) => {
    const { initialDate, finalDate } = req.query;
    return ticketsPerDay(ctx.db, caller(req).companyId, dayWindow(initialDate, finalDate), initialDate === finalDate);
  });

  r.get(
    '/messages-allMe',
    { schema: { tags, querystring: messagesAllMeQuery, response: { 200: messagesAllMeResponse } }, ...dashboard },
    async (req) => {
      const { companyId } = caller(req);
      const count = await messagesCount(ctx.db, companyId, dayWindow(req.query.dateStart, req.query.dateEnd), req.query.fromMe);
      return { count: [{ count }] };
    },
  );

  r.get(
    '/dashboard/moments',
    { schema: { tags, querystring: momentsQuery, response: { 200: z.array(momentTicketSchema) } }, ...panel },
    async (req) => listMoments(ctx.db, await loadViewer(ctx.db, caller(req)), req.query),
  );

  r.get('/usersMoments', { schema: { tags, querystring: momentsQuery, response: { 200: z.array(userMomentSchema) } }, ...panel }, async (req) =>
    listUserMoments(ctx.db, caller(req).companyId, momentsWindow(req.query)),
  );
}
