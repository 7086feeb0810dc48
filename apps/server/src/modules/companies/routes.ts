import {
  companiesPageSchema,
  companySchedulesBody,
  companyPlanSchema,
  companySchema,
  createCompanyBody,
  idParam,
  pageQuery,
  updateCompanyBody,
} from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, requireAdmin, requireSuper } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { listCompanies, pageCompanies } from './queries.js';
import { companyPlanOf, createCompany, deleteCompany, getCompany, renewCompany, setCompanySchedules, updateCompany } from './service.js';

const params = z.object({ id: idParam });

export function registerCompanyRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const superOnly = { onRequest: authenticate, preHandler: requireSuper };
  const tags = ['companies'];

  r.get('/companies', { schema: { tags, querystring: pageQuery, response: { 200: companiesPageSchema } }, ...superOnly }, async (req) =>
    pageCompanies(ctx.db, req.query),
  );

  r.get('/companies/list', { schema: { tags, response: { 200: z.array(companySchema) } }, ...superOnly }, async () => listCompanies(ctx.db));

  r.get(
    '/companies/listPlan/:companyId',
    { schema: { tags, params: z.object({ companyId: idParam }), response: { 200: companyPlanSchema } }, onRequest: authenticate },
    async (req) => companyPlanOf(ctx, caller(req), req.params.companyId),
  );

  r.get('/companies/:id', { schema: { tags, params, response: { 200: companySchema } }, onRequest: authenticate }, async (req) =>
    getCompany(ctx, caller(req), req.params.id),
  );

  r.post('/companies', { schema: { tags, body: createCompanyBody, response: { 200: companySchema } }, ...superOnly }, async (req) =>
    createCompany(ctx, req.body),
  );

  r.put('/companies/:id', { schema: { tags, params, body: updateCompanyBody, response: { 200: companySchema } }, ...superOnly }, async (req) =>
    updateCompany(ctx, req.params.id, req.body),
  );

  r.post('/companies/:id/renew', { schema: { tags, params, response: { 200: companySchema } }, ...superOnly }, async (req) =>
    renewCompany(ctx, req.params.id),
  );

  r.put(
    '/companies/:id/schedules',
    { schema: { tags, params, body: companySchedulesBody, response: { 200: companySchema } }, onRequest: authenticate, preHandler: requireAdmin },
    async (req) => setCompanySchedules(ctx, caller(req), req.params.id, req.body.schedules),
  );

  r.delete('/companies/:id', { schema: { tags, params, response: { 200: z.object({}) } }, ...superOnly }, async (req) => {
    await deleteCompany(ctx, req.params.id);
    return {};
  });
}
