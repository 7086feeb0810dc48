import type { Channel, Whatsapp } from '@balcao/contracts';
import { and, asc, count, eq, inArray, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { companies, prompts, queues, whatsappQueues, whatsapps, whatsappSessions } from '../../db/schema/index.js';
import { presentWhatsapp, type WhatsappRow } from './presenter.js';

export async function findWhatsapp(db: DbOrTx, id: number): Promise<WhatsappRow | undefined> {
  const [row] = await db.select().from(whatsapps).where(eq(whatsapps.id, id));
  return row;
}

export async function queuesOf(db: DbOrTx, whatsappIds: number[]): Promise<Map<number, Whatsapp['queues']>> {
  const byConnection = new Map<number, Whatsapp['queues']>();
  if (whatsappIds.length === 0) return byConnection;
  const rows = await db
    .select({ whatsappId: whatsappQueues.whatsappId, id: queues.id, name: queues.name, color: queues.color, greetingMessage: queues.greetingMessage })
    .from(whatsappQueues)
    .innerJoin(queues, eq(queues.id, whatsappQueues.queueId))
    .where(inArray(whatsappQueues.whatsappId, whatsappIds))
    .orderBy(asc(queues.orderQueue), asc(queues.name));
  for (const { whatsappId, ...queue } of rows) byConnection.set(whatsappId, [...(byConnection.get(whatsappId) ?? []), queue]);
  return byConnection;
}

/** Connections shaped for the API, with queues (and company names for the super user's overview). */
export async function presentWhatsapps(db: DbOrTx, rows: WhatsappRow[], manager: boolean, withCompany = false): Promise<Whatsapp[]> {
  const queueMap = await queuesOf(
    db,
    rows.map((r) => r.id),
  );
  const names = new Map<number, string>();
  if (withCompany && rows.length) {
    const cs = await db
      .select({ id: companies.id, name: companies.name })
      .from(companies)
      .where(inArray(companies.id, [...new Set(rows.map((r) => r.companyId))]));
    for (const c of cs) names.set(c.id, c.name);
  }
  const promptIds = [...new Set(rows.map((r) => r.promptId).filter((id): id is number => id !== null))];
  const promptRefs = new Map(
    promptIds.length ? (await db.select({ id: prompts.id, name: prompts.name }).from(prompts).where(inArray(prompts.id, promptIds))).map((p) => [p.id, p]) : [],
  );
  return rows.map((row) =>
    presentWhatsapp(row, {
      queues: queueMap.get(row.id) ?? [],
      prompt: row.promptId === null ? null : (promptRefs.get(row.promptId) ?? null),
      manager,
      company: withCompany ? { id: row.companyId, name: names.get(row.companyId) ?? '' } : undefined,
    }),
  );
}

export async function listWhatsapps(db: DbOrTx, filter: { companyId?: number; channel?: Channel }): Promise<WhatsappRow[]> {
  const conds = [];
  if (filter.companyId !== undefined) conds.push(eq(whatsapps.companyId, filter.companyId));
  if (filter.channel) conds.push(eq(whatsapps.channel, filter.channel));
  return db
    .select()
    .from(whatsapps)
    .where(conds.length ? and(...conds) : undefined)
    .orderBy(asc(whatsapps.companyId), asc(whatsapps.name), asc(whatsapps.id));
}

export async function countWhatsapps(db: DbOrTx, companyId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(whatsapps).where(eq(whatsapps.companyId, companyId));
  return row?.n ?? 0;
}

export async function otherWhatsappIds(db: DbOrTx, companyId: number, exceptId: number): Promise<number[]> {
  const rows = await db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), ne(whatsapps.id, exceptId)));
  return rows.map((r) => r.id);
}

/** Connections with stored Baileys credentials: started at boot so a restart needs no new scan. */
export async function whatsappsWithSession(db: DbOrTx): Promise<WhatsappRow[]> {
  return db
    .select({ w: whatsapps })
    .from(whatsapps)
    .innerJoin(whatsappSessions, and(eq(whatsappSessions.whatsappId, whatsapps.id), eq(whatsappSessions.key, 'creds')))
    .where(eq(whatsapps.channel, 'whatsapp'))
    .then((rows) => rows.map((r) => r.w));
}
