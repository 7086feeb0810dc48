import type { Schedule } from '@balcao/contracts';
import { aliasedTable, eq, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { contacts, queues, schedules, users, whatsapps } from '../../db/schema/index.js';

export type ScheduleRow = typeof schedules.$inferSelect;
type Named = { id: number; name: string } | null;

const ticketUsers = aliasedTable(users, 'ticket_users');

/** Schedules with the names the calendar and the modal show (contact, ticket user, queue, connection). */
export function selectSchedules(db: DbOrTx, where: SQL) {
  return db
    .select({
      row: schedules,
      contactName: contacts.name,
      ticketUserName: ticketUsers.name,
      queueName: queues.name,
      whatsappName: whatsapps.name,
    })
    .from(schedules)
    .innerJoin(contacts, eq(contacts.id, schedules.contactId))
    .leftJoin(ticketUsers, eq(ticketUsers.id, schedules.ticketUserId))
    .leftJoin(queues, eq(queues.id, schedules.queueId))
    .leftJoin(whatsapps, eq(whatsapps.id, schedules.whatsappId))
    .where(where);
}

type Selected = Awaited<ReturnType<typeof selectSchedules>>[number];

const named = (id: number | null, name: string | null): Named => (id !== null && name !== null ? { id, name } : null);

/** The one place that shapes a schedule for the API. */
export function presentSchedule(s: Selected, mediaUrl: (file: string) => string): Schedule {
  const { row } = s;
  return {
    id: row.id,
    companyId: row.companyId,
    body: row.body,
    sendAt: row.sendAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    status: row.status,
    reason: row.reason,
    contactId: row.contactId,
    contact: named(row.contactId, s.contactName),
    userId: row.userId,
    ticketUserId: row.ticketUserId,
    ticketUser: named(row.ticketUserId, s.ticketUserName),
    queueId: row.queueId,
    queue: named(row.queueId, s.queueName),
    whatsappId: row.whatsappId,
    whatsapp: named(row.whatsappId, s.whatsappName),
    openTicket: row.openTicket,
    statusTicket: row.statusTicket,
    intervalo: row.intervalo,
    valorIntervalo: row.valorIntervalo,
    enviarQuantasVezes: row.enviarQuantasVezes,
    contadorEnvio: row.contadorEnvio,
    tipoDias: row.tipoDias,
    assinar: row.assinar,
    mediaPath: row.mediaPath,
    mediaName: row.mediaName,
    mediaUrl: row.mediaPath ? mediaUrl(row.mediaPath) : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
