import { auditLogPageSchema, auditLogQuery } from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { caller, requireAdmin } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { registerAuditHook } from './hook.js';
import { AUDIT_PAGE_SIZE, auditPage, presentAuditEntry } from './queries.js';

/** The audit log: recorded by the hook (and `recordAudit`), read here; there is no route to edit or delete it. */
export function registerAuditRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  registerAuditHook(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/audit-log',
    {
      schema: { tags: ['audit'], querystring: auditLogQuery, response: { 200: auditLogPageSchema }, security: [{ bearer: [] }] },
      onRequest: authenticate,
      preHandler: requireAdmin,
    },
    async (req) => {
      const user = caller(req);
      const { pageNumber, companyId, ...filters } = req.query;
      // Admins see their company's entries; the super user every company's, or one.
      const scope = user.super ? companyId : user.companyId;
      const { rows, count } = await auditPage(ctx.db, { ...filters, companyId: scope }, pageNumber);
      return { entries: rows.map(presentAuditEntry), count, hasMore: count > pageNumber * AUDIT_PAGE_SIZE };
    },
  );
}
