import { PLATFORM_COMPANY_ID, localIsoDate } from '@balcao/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.js';

/**
 * What a company past its due date may still call (spec 1 §4): its session, and what /financeiro-aberto
 * needs to pay (invoices, the plan for checkout, the checkout). Login and refresh need no token at all.
 */
const OPEN_WHEN_EXPIRED = new Set([
  'GET /auth/me',
  'DELETE /auth/logout',
  'GET /invoices',
  'POST /subscription',
  'GET /companies/listPlan/:companyId',
]);

/** A due date lasts to the end of its day; company 1 and a company without a due date never expire. */
export function subscriptionExpired(companyId: number, dueDate: string | null, today = localIsoDate(new Date())): boolean {
  return companyId !== PLATFORM_COMPANY_ID && dueDate !== null && dueDate < today;
}

/** Every other authenticated route answers 402 ERR_SUBSCRIPTION_EXPIRED until the company pays. */
export function assertSubscriptionActive(req: FastifyRequest, companyId: number, dueDate: string | null): void {
  if (!subscriptionExpired(companyId, dueDate)) return;
  if (OPEN_WHEN_EXPIRED.has(`${req.method} ${req.routeOptions.url}`)) return;
  throw new AppError('ERR_SUBSCRIPTION_EXPIRED', 402);
}
