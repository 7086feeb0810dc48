import type { Contact, Ticket } from '@balcao/contracts';
import type { queues, tickets, users, whatsapps } from '../../db/schema/index.js';
import type { ContactMask } from '../contacts/lgpd.js';

export type TicketRow = typeof tickets.$inferSelect;

export interface TicketIncludes {
  contact: Contact;
  queue: Pick<typeof queues.$inferSelect, 'id' | 'name' | 'color'> | null;
  user: Pick<typeof users.$inferSelect, 'id' | 'name'> | null;
  whatsapp: (Pick<typeof whatsapps.$inferSelect, 'id' | 'name' | 'expiresTicket' | 'groupAsTicket' | 'channel'> & { hasFarewell: boolean }) | null;
  tags: Ticket['tags'];
}

/** The one place that shapes a ticket (API-CONTRACT: the same shape as `GET /tickets/u/{uuid}`). */
export function presentTicket(row: TicketRow, inc: TicketIncludes): Ticket {
  return {
    id: row.id,
    uuid: row.uuid,
    companyId: row.companyId,
    status: row.status,
    userId: row.userId,
    queueId: row.queueId,
    contactId: row.contactId,
    whatsappId: row.whatsappId,
    isGroup: row.isGroup,
    channel: row.channel,
    useIntegration: row.useIntegration,
    lastMessage: row.lastMessage,
    unreadMessages: row.unreadMessages,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    closedAt: row.closedAt?.toISOString() ?? null,
    contact: inc.contact,
    queue: inc.queue,
    user: inc.user,
    tags: inc.tags,
    whatsapp: inc.whatsapp,
  };
}

/** A ticket as a viewer may see it: its contact through the viewer's LGPD mask (HTTP answers and socket events alike). */
export function ticketForViewer(ticket: Ticket, mask: ContactMask): Ticket {
  return { ...ticket, contact: mask(ticket.contact) };
}
