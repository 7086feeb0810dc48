import { chatRoomEvent, chatUserEvent, companyEvent, isPublicSettingKey } from '@balcao/contracts';
import type { Chat } from '@balcao/contracts';
import type { DomainEvent } from '../events/types.js';
import { messageForViewer } from '../modules/messages/presenter.js';
import { ticketForViewer } from '../modules/tickets/presenter.js';
import { disconnectFamily } from './families.js';
import { ROOMS, ticketAudience } from './rooms.js';
import type { Realtime } from './server.js';

type TicketUpdated = DomainEvent & { type: 'ticket.updated' };

async function emitTicketUpdated(rt: Realtime, event: TicketUpdated): Promise<void> {
  const { ticket, previous } = event;
  const audience = ticketAudience(ticket);
  await rt.emitMasked(ticket.companyId, audience, 'ticket', (mask) => ({ action: 'update', ticket: ticketForViewer(ticket, mask) }), event.hidesNumbers);
  rt.pruneTicketRoom(ticket.companyId, ticket);
  // Viewers the ticket just left get `delete` (their lists drop it), not a ticket they may no longer open.
  if (previous) {
    const before = ticketAudience({ ...previous, status: previous.status ?? ticket.status });
    rt.emitToRoomsExcept(ticket.companyId, before, audience, 'ticket', { action: 'delete', ticketId: ticket.id });
  }
}

/** Chat events reach the members' own rooms only (spec 3 "chat events never reach non-members"). */
const memberIds = (chat: Chat) => chat.users.map((u) => u.userId);

/**
 * The bus's events as socket emits, the only place that makes them: each goes to the
 * rooms of exactly the viewers who may see it, built once per audience (admins, and
 * everyone else masked when the company hides numbers), never once per socket.
 */
export async function emitDomainEvent(rt: Realtime, event: DomainEvent): Promise<void> {
  switch (event.type) {
    case 'ticket.updated':
      return emitTicketUpdated(rt, event);
    case 'ticket.deleted':
      return rt.emitToRooms(event.ticket.companyId, ticketAudience(event.ticket), 'ticket', { action: 'delete', ticketId: event.ticket.id });
    case 'ticket.read':
      return rt.emitToRooms(event.ticket.companyId, ticketAudience(event.ticket), 'ticket', { action: 'updateUnread', ticketId: event.ticket.id });
    case 'message.created': {
      const { message, ticket } = event;
      return rt.emitMasked(
        ticket.companyId,
        ticketAudience(ticket),
        'appMessage',
        (mask) => {
          const contact = mask(ticket.contact);
          return { action: 'create', message: messageForViewer(message, contact), ticket: ticketForViewer(ticket, mask), contact };
        },
        event.hidesNumbers,
      );
    }
    case 'message.updated': {
      const { message, ticket } = event;
      return rt.emitMasked(
        ticket.companyId,
        ticketAudience(ticket),
        'appMessage',
        (mask) => ({ action: 'update', message: messageForViewer(message, mask(ticket.contact)) }),
        event.hidesNumbers,
      );
    }
    case 'contact.saved':
      return rt.emitMasked(event.companyId, [ROOMS.everyone], 'contact', (mask) => ({ action: event.action, contact: mask(event.contact) }), event.hidesNumbers);
    case 'contact.deleted':
      return rt.emitToRooms(event.companyId, [ROOMS.everyone], 'contact', { action: 'delete', contactId: event.contactId });
    case 'contact.importProgress':
      return rt.emitToUser(event.companyId, event.userId, 'contactImport', event.payload);
    case 'whatsapp.session':
      return rt.emitToRooms(event.companyId, [ROOMS.connections], 'whatsappSession', event.payload);
    case 'whatsapp.importProgress':
      return rt.emitImportProgress(event.companyId, event.payload);
    case 'company.record':
      return rt.emitToCompany(event.companyId, event.name, event.payload);
    case 'super.record':
      return rt.emitToSupers(event.name, event.payload);
    case 'tag.record':
      return rt.emitTag(event.companyId, event.payload);
    case 'quickMessage.record': {
      const rooms = event.shared ? [ROOMS.everyone] : [ROOMS.admins, ...(event.ownerId ? [ROOMS.user(event.ownerId)] : [])];
      return rt.emitToRooms(event.companyId, rooms, 'quickemessage', event.payload);
    }
    case 'campaign.record':
      return rt.emitToRooms(event.companyId, [ROOMS.admins], event.name, event.payload);
    case 'prompt.record':
      return rt.emitToRooms(event.companyId, [ROOMS.admins], 'prompt', event.payload);
    case 'schedule.record':
      return rt.emitSchedule(event.companyId, event.payload);
    case 'platform.setting':
      rt.emitToAllCompanies('settings', { action: 'update', setting: event.setting });
      if (isPublicSettingKey(event.setting.key)) rt.emitPublicSetting({ action: 'update', setting: event.setting });
      return;
    case 'platform.help':
      return rt.emitToAllCompanies('help', event.payload);
    case 'platform.announcement':
      return rt.emitAnnouncement(event.payload);
    case 'user.signedIn':
      return rt.emitToUser(event.companyId, event.userId, 'auth', { action: 'update', user: { id: event.userId } });
    case 'user.signedOut':
      return rt.disconnectUser(event.companyId, event.userId);
    case 'user.familyRevoked':
      return disconnectFamily(rt, event.companyId, event.userId, event.family);
    case 'user.rightsChanged':
      return rt.refreshUserRooms(event.companyId, event.userId);
    case 'company.deleted':
      return rt.disconnectCompany(event.companyId);
    case 'chat.saved': {
      const { companyId, chat } = event;
      for (const { userId } of chat.users) rt.emitToMembers(companyId, [userId], chatUserEvent(companyId, userId), { action: event.action, record: chat });
      for (const userId of event.removedUserIds) rt.emitToMembers(companyId, [userId], chatUserEvent(companyId, userId), { action: 'delete', id: chat.id });
      return rt.emitToMembers(companyId, memberIds(chat), companyEvent(companyId, 'chat'), { action: 'update', chat });
    }
    case 'chat.deleted':
      for (const userId of event.memberIds) rt.emitToMembers(event.companyId, [userId], chatUserEvent(event.companyId, userId), { action: 'delete', id: event.chatId });
      return;
    case 'chat.message': {
      const { companyId, chat, message } = event;
      const payload = { action: 'new-message' as const, newMessage: message, chat };
      rt.emitToMembers(companyId, memberIds(chat), chatRoomEvent(companyId, chat.id), payload);
      return rt.emitToMembers(companyId, memberIds(chat), companyEvent(companyId, 'chat'), payload);
    }
    case 'chat.read':
      return rt.emitToMembers(event.companyId, memberIds(event.chat), companyEvent(event.companyId, 'chat'), { action: 'update', chat: event.chat });
    case 'campaign.finished':
      // The campaign engine's own `company-{id}-campaign` emits carry the report; this event is for webhooks.
      return;
  }
}
