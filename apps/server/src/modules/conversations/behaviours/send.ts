import type { MediaType } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import { companySettings, contacts, queues, tickets, users, whatsapps } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import { fillVariables } from '../../messages/variables.js';
import { mimetypeOfStored } from '../../../storage/media.js';
import { queueOutgoing } from '../outbound.js';
import { wordsOf } from './words.js';

/** A stored file's message type by its MIME family (greeting images and videos, a file list's documents). */
function storedMediaType(mimetype: string): MediaType {
  const family = mimetype.split('/')[0];
  return family === 'image' || family === 'audio' || family === 'video' ? family : 'application';
}

/** A connection-level message (greeting, farewell, rating…) to the ticket's contact, through the outbox; `{{ms}}` in the company's botLanguage. */
export async function sendConnectionMessage(ctx: AppContext, ticketId: number, template: string, mediaFile?: string | null): Promise<void> {
  const [row] = await ctx.db
    .select({ ticket: tickets, contactName: contacts.name, userName: users.name, queueName: queues.name, connectionName: whatsapps.name, language: companySettings.botLanguage })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .leftJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
    .leftJoin(companySettings, eq(companySettings.companyId, tickets.companyId))
    .where(eq(tickets.id, ticketId));
  if (!row) return;
  const body = fillVariables(template, { ...row, ticketId, dayGreetings: wordsOf(row.language).dayGreetings });
  const mimetype = mediaFile ? mimetypeOfStored(mediaFile) : undefined;
  await queueOutgoing(ctx, {
    companyId: row.ticket.companyId,
    ticketId,
    body,
    media: mediaFile && mimetype ? { fileName: mediaFile, mimetype, mediaType: storedMediaType(mimetype) } : undefined,
  });
}
