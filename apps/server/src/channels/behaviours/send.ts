import { eq } from 'drizzle-orm';
import { contacts, queues, tickets, users, whatsapps } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { mimetypeOfStored } from '../../storage/media.js';
import { queueOutgoing } from '../outbound.js';

const two = (n: number) => String(n).padStart(2, '0');

/** Greeting by the hour (`{{ms}}`), in the product's default language. */
export function greetingByHour(now: Date): string {
  const h = now.getHours();
  return h < 12 ? 'Bom dia' : h < 18 ? 'Boa tarde' : 'Boa noite';
}

/** Fills the message variables of spec 2 §9: {{firstName}}, {{name}}, {{userName}}, {{ms}}, {{protocol}}, {{date}}, {{hour}}, {{ticket_id}}, {{queue}}, {{connection}}. */
export function fillVariables(
  template: string,
  v: { contactName: string; userName?: string | null; queueName?: string | null; connectionName?: string | null; ticketId: number },
  now = new Date(),
): string {
  const date = `${two(now.getDate())}/${two(now.getMonth() + 1)}/${now.getFullYear()}`;
  const hour = `${two(now.getHours())}:${two(now.getMinutes())}:${two(now.getSeconds())}`;
  const values: Record<string, string> = {
    firstName: v.contactName.split(' ')[0] ?? '',
    name: v.contactName,
    userName: v.userName ?? '',
    ms: greetingByHour(now),
    protocol: `${now.getFullYear()}${two(now.getMonth() + 1)}${two(now.getDate())}${two(now.getHours())}${two(now.getMinutes())}${two(now.getSeconds())}${v.ticketId}`,
    date,
    hour,
    ticket_id: String(v.ticketId),
    queue: v.queueName ?? '',
    connection: v.connectionName ?? '',
  };
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (all, key: string) => values[key] ?? all);
}

/** A connection-level message (greeting, farewell, rating…) to the ticket's contact, through the outbox. */
export async function sendConnectionMessage(ctx: AppContext, ticketId: number, template: string, mediaFile?: string | null): Promise<void> {
  const [row] = await ctx.db
    .select({ ticket: tickets, contactName: contacts.name, userName: users.name, queueName: queues.name, connectionName: whatsapps.name })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .leftJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
    .where(eq(tickets.id, ticketId));
  if (!row) return;
  const body = fillVariables(template, { ...row, ticketId });
  const mimetype = mediaFile ? mimetypeOfStored(mediaFile) : undefined;
  await queueOutgoing(ctx, {
    companyId: row.ticket.companyId,
    ticketId,
    body,
    media: mediaFile && mimetype ? { fileName: mediaFile, mimetype, mediaType: mimetype.startsWith('video/') ? 'video' : 'image' } : undefined,
  });
}
