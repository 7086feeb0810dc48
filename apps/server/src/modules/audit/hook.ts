import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../http/context.js';
import { AUDITED_ROUTES, companyOfRecord, type AuditedRoute } from './audited-routes.js';
import { auditSource, recordAudit } from './record.js';

type Row = Record<string, unknown>;

const paramsOf = (req: FastifyRequest): Record<string, string> =>
  Object.fromEntries(Object.entries((req.params ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]));

function parsed(payload: unknown): Row | string | undefined {
  if (typeof payload !== 'string') return undefined;
  try {
    return JSON.parse(payload) as Row | string;
  } catch {
    return undefined;
  }
}

/**
 * The one place administrative routes are audited: before the handler the changed record is
 * read, after a successful answer it is read again and the difference recorded, before the
 * response leaves (a client that sees the answer finds the entry). Modules stay unaware.
 */
export function registerAuditHook(app: FastifyInstance, ctx: AppContext): void {
  const pending = new WeakMap<FastifyRequest, { route: AuditedRoute; before: Row | undefined }>();

  app.addHook('preHandler', async (req) => {
    const route = AUDITED_ROUTES[`${req.method} ${req.routeOptions.url}`];
    if (!route || !req.auth) return;
    const id = route.idOf(paramsOf(req), req.auth, undefined);
    pending.set(req, { route, before: id && route.load ? await route.load(ctx.db, id) : undefined });
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const state = pending.get(req);
    if (!state || !req.auth || reply.statusCode >= 400) return payload;
    const { route, before } = state;
    const response = parsed(payload);
    const id = route.idOf(paramsOf(req), req.auth, typeof response === 'object' ? response : undefined);
    let after: Row | undefined;
    if (route.action !== 'delete') {
      if (id && route.load) after = await route.load(ctx.db, id);
      else if (typeof response === 'string') after = { file: response };
    }
    try {
      await recordAudit(ctx.db, {
        companyId: companyOfRecord(route.entity, after ?? before, req.auth),
        entity: route.entity,
        action: route.action,
        entityId: id,
        before,
        after,
        source: auditSource(req),
      });
    } catch (err) {
      // The change is committed: the caller still gets its answer; the gap is logged loudly.
      req.log.error({ err, entity: route.entity, id }, 'audit entry not recorded');
    }
    return payload;
  });
}
