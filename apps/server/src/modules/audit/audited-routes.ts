import type { AuditAction, AuditEntity } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { companies, companySettings, plans, queues, settings, userQueues, users, whatsapps } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';

type Row = Record<string, unknown>;
type RowLoader = (db: DbOrTx, id: string) => Promise<Row | undefined>;

/** Reads a record the way it is stored, every column (secrets are redacted when recorded). */
const byId =
  (table: typeof users | typeof queues | typeof whatsapps | typeof plans | typeof companies): RowLoader =>
  async (db, id) => {
    if (!/^\d+$/.test(id)) return undefined;
    // One shape for the five tables: the cast only tells drizzle which row type to expect.
    const [row] = await db.select().from(table as typeof users).where(eq(table.id, Number(id)));
    return row;
  };

/** A user with the queues it may serve: both are its permissions. */
const loadUser: RowLoader = async (db, id) => {
  const row = await byId(users)(db, id);
  if (!row) return undefined;
  const rows = await db.select({ queueId: userQueues.queueId }).from(userQueues).where(eq(userQueues.userId, Number(id)));
  return { ...row, queueIds: rows.map((r) => r.queueId).sort((a, b) => a - b) };
};

const loadSetting: RowLoader = async (db, key) => {
  const [row] = await db.select().from(settings).where(eq(settings.key, key));
  return row;
};

const loadCompanySettings: RowLoader = async (db, companyId) => {
  const [row] = await db.select().from(companySettings).where(eq(companySettings.companyId, Number(companyId)));
  return row;
};

/** One administrative route: what it changes and how to read that record before and after. */
export interface AuditedRoute {
  entity: AuditEntity;
  action: AuditAction;
  /** The changed record's id: from the path, the caller, or (creates) the response. */
  idOf: (params: Record<string, string>, caller: AuthUser, response: Row | undefined) => string | undefined;
  load?: RowLoader;
}

const param = (name: string) => (params: Record<string, string>) => params[name];
const created = (_: unknown, __: unknown, response: Row | undefined) => (response?.id == null ? undefined : String(response.id));
const crud = (entity: AuditEntity, base: string, load: RowLoader): Record<string, AuditedRoute> => ({
  [`POST ${base}`]: { entity, action: 'create', idOf: created, load },
  [`PUT ${base}/:id`]: { entity, action: 'update', idOf: param('id'), load },
  [`DELETE ${base}/:id`]: { entity, action: 'delete', idOf: param('id'), load },
});

const loadCompany = byId(companies);
const loadWhatsapp = byId(whatsapps);

/**
 * Every administrative route, keyed `METHOD /route/:pattern` as Fastify names it. A module
 * adding one adds a line here; payments and other changes outside a route call `recordAudit`.
 */
export const AUDITED_ROUTES: Record<string, AuditedRoute> = {
  ...crud('user', '/users', loadUser),
  ...crud('queue', '/queue', byId(queues)),
  ...crud('whatsapp', '/whatsapp', loadWhatsapp),
  'POST /whatsappsession/:id': { entity: 'whatsapp', action: 'update', idOf: param('id'), load: loadWhatsapp },
  'PUT /whatsappsession/:id': { entity: 'whatsapp', action: 'update', idOf: param('id'), load: loadWhatsapp },
  'DELETE /whatsappsession/:id': { entity: 'whatsapp', action: 'update', idOf: param('id'), load: loadWhatsapp },
  ...crud('plan', '/plans', byId(plans)),
  ...crud('company', '/companies', loadCompany),
  'POST /companies/:id/renew': { entity: 'company', action: 'update', idOf: param('id'), load: loadCompany },
  'PUT /companies/:id/schedules': { entity: 'company', action: 'update', idOf: param('id'), load: loadCompany },
  'PUT /settings/:key': { entity: 'setting', action: 'update', idOf: param('key'), load: loadSetting },
  'PUT /companySettings': { entity: 'companySetting', action: 'update', idOf: (_, caller) => String(caller.companyId), load: loadCompanySettings },
  'POST /settings-whitelabel/logo': { entity: 'branding', action: 'update', idOf: () => 'logo' },
  'POST /settings-whitelabel/login': { entity: 'branding', action: 'update', idOf: () => 'login' },
};

/** The company an entry belongs to: the record's own, else (platform records: plans, settings) the caller's. */
export function companyOfRecord(entity: AuditEntity, row: Row | undefined, caller: AuthUser): number {
  if (entity === 'company' && typeof row?.id === 'number') return row.id;
  return typeof row?.companyId === 'number' ? row.companyId : caller.companyId;
}
