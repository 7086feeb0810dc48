import { eq } from 'drizzle-orm';
import type { Db } from '../src/db/client.js';
import { companySettings, contacts, queues, ticketLogs, tickets, userQueues } from '../src/db/schema/index.js';
import type { Channel } from '@balcao/contracts';

let seq = 0;

/** A queue of the company, written straight to the database. */
export async function createQueue(db: Db, companyId: number, name = 'Fila') {
  seq += 1;
  const [row] = await db
    .insert(queues)
    .values({ companyId, name: `${name} ${seq}`, color: `#${String(100000 + seq).slice(-6)}` })
    .returning();
  return row!;
}

export async function joinQueues(db: Db, companyId: number, userId: number, queueIds: number[]) {
  await db.insert(userQueues).values(queueIds.map((queueId) => ({ userId, queueId, companyId })));
}

export async function createContact(db: Db, companyId: number, over: Partial<typeof contacts.$inferInsert> = {}) {
  seq += 1;
  const number = over.number ?? String(7_000_000 + seq);
  const channel: Channel = over.channel ?? 'facebook';
  const [row] = await db
    .insert(contacts)
    .values({ companyId, channel, name: `Maria Silva ${seq}`, number, remoteJid: number, ...over })
    .returning();
  return row!;
}

/** A ticket written straight to the database (pending, no owner, unless told otherwise). */
export async function createTicketRow(db: Db, fields: Pick<typeof tickets.$inferInsert, 'companyId' | 'contactId' | 'whatsappId'> & Partial<typeof tickets.$inferInsert>) {
  const [row] = await db
    .insert(tickets)
    .values({ channel: 'facebook', status: 'pending', ...fields })
    .returning();
  return row!;
}

export const ticketRow = async (db: Db, id: number) => (await db.select().from(tickets).where(eq(tickets.id, id)))[0];
export const logsOf = (db: Db, ticketId: number) => db.select().from(ticketLogs).where(eq(ticketLogs.ticketId, ticketId)).orderBy(ticketLogs.id);

export async function setCompanySettings(db: Db, companyId: number, set: Partial<typeof companySettings.$inferInsert>) {
  await db.update(companySettings).set(set).where(eq(companySettings.companyId, companyId));
}
