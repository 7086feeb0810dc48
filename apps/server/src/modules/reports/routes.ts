import { PassThrough } from 'node:stream';
import { REPORT_FILE_NAME, REPORT_MAX_PAGE_SIZE, reportFilterQuery, reportQuery, reportResponse } from '@balcao/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { caller, permissionGuard } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { assertManagementAccess } from '../dashboard/access.js';
import { loadViewer } from '../tickets/visibility.js';
import { writeReportXlsx } from './export.js';
import { writeReportJson } from './json-stream.js';
import { assertFilterIdsInCompany, presentReportRow, reportPage, reportWhere } from './queries.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Streams `write`'s output as the reply; a failure mid-stream ends the reply and is logged (headers are gone by then). */
function streamReply(ctx: AppContext, reply: FastifyReply, write: (out: PassThrough) => Promise<void>) {
  const out = new PassThrough();
  write(out).then(
    () => out.end(),
    (err: unknown) => {
      ctx.log.error({ err }, 'report stream failed');
      out.destroy(err as Error);
    },
  );
  return reply.send(out);
}

/** Reports (spec 2 §2, §7): admins and users with showDashboard; rows are what the caller's inbox shows. */
export function registerReportRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['reports'];
  const guarded = { onRequest: authenticate, preHandler: permissionGuard(async (req: FastifyRequest) => assertManagementAccess(ctx.db, caller(req), 'showDashboard')) };

  const whereFor = async (req: FastifyRequest, filter: Parameters<typeof reportWhere>[2]) => {
    const by = caller(req);
    await assertFilterIdsInCompany(ctx.db, by.companyId, filter);
    return reportWhere(ctx.db, await loadViewer(ctx.db, by), filter);
  };

  r.get('/ticketreport/reports', { schema: { tags, querystring: reportQuery, response: { 200: reportResponse } }, ...guarded }, async (req, reply) => {
    const { page = 1, pageSize = 10, ...filter } = req.query;
    const where = await whereFor(req, filter);
    // The legacy "export" asks page 1 of 9999999 rows: answered as a stream of keyset batches, not one buffered page.
    if (pageSize > REPORT_MAX_PAGE_SIZE) {
      reply.type('application/json');
      return streamReply(ctx, reply, (out) => writeReportJson(ctx.db, where, page, out));
    }
    const { rows, total } = await reportPage(ctx.db, filter, where, page, pageSize);
    return { tickets: rows.map(presentReportRow), totalTickets: { total } };
  });

  r.get('/ticketreport/export', { schema: { tags, querystring: reportFilterQuery }, ...guarded }, async (req, reply) => {
    const where = await whereFor(req, req.query);
    reply.type(XLSX).header('content-disposition', `attachment; filename="${REPORT_FILE_NAME}"`);
    return streamReply(ctx, reply, (out) => writeReportXlsx(ctx.db, where, out));
  });
}
