import type {
  Announcement,
  Chat,
  ChatMessage,
  CampaignReport,
  ContactList,
  ContactListItem,
  AuthEventPayload,
  Company,
  CompanyEventName,
  Contact,
  ContactEventPayload,
  ContactImportProgressPayload,
  Help,
  ImportMessagesEventPayload,
  ListEventPayload,
  PaymentEventPayload,
  Message,
  Plan,
  Prompt,
  Queue,
  QueueIntegration,
  FileList,
  QuickMessage,
  Schedule,
  Setting,
  SettingsEventPayload,
  Tag,
  Ticket,
  AppMessageEventPayload,
  TicketEventPayload,
  User,
  UserEventPayload,
  WhatsappEventPayload,
  WhatsappSessionEventPayload,
} from '@balcao/contracts';

/** Payloads of the `company-{id}-{name}` socket events this server emits; later issues add theirs here. */
export interface SocketPayloads {
  auth: AuthEventPayload;
  user: UserEventPayload<User>;
  settings: SettingsEventPayload;
  queue: ListEventPayload<Queue>;
  plan: ListEventPayload<Plan>;
  company: ListEventPayload<Company>;
  help: ListEventPayload<Help>;
  ticket: TicketEventPayload;
  appMessage: AppMessageEventPayload;
  contact: ContactEventPayload;
  contactImport: ContactImportProgressPayload;
  whatsapp: WhatsappEventPayload;
  whatsappSession: WhatsappSessionEventPayload;
  quickemessage: ListEventPayload<QuickMessage>;
  queueIntegration: ListEventPayload<QueueIntegration>;
  file: ListEventPayload<FileList>;
  payment: PaymentEventPayload;
  ContactList: ListEventPayload<ContactList>;
  ContactListItem: ListEventPayload<ContactListItem>;
  campaign: ListEventPayload<CampaignReport>;
  prompt: ListEventPayload<Prompt>;
}
export type EventPayload<N extends CompanyEventName> = N extends keyof SocketPayloads ? SocketPayloads[N] : Record<string, unknown>;

/** A change every user of one company hears about (lists without a per-viewer rule). */
type CompanyRecordName = 'user' | 'queue' | 'settings' | 'whatsapp' | 'payment' | 'queueIntegration' | 'file';
type CompanyRecord = {
  [N in CompanyRecordName]: { type: 'company.record'; companyId: number; name: N; payload: SocketPayloads[N] };
}[CompanyRecordName];
/** Plans and companies are the super users' business: only their sockets hear of them. */
type SuperRecord = { [N in 'plan' | 'company']: { type: 'super.record'; name: N; payload: SocketPayloads[N] } }['plan' | 'company'];

type CampaignRecord = {
  [N in 'ContactList' | 'ContactListItem' | 'campaign']: { type: 'campaign.record'; companyId: number; name: N; payload: SocketPayloads[N] };
}['ContactList' | 'ContactListItem' | 'campaign'];

/** What a ticket's visibility depends on: enough to address the viewers of a ticket that is gone. */
export interface TicketScope {
  id: number;
  companyId: number;
  userId: number | null;
  queueId: number | null;
  status: string;
}

/**
 * What changed in the conversation core, as commands publish it. Subscribers (realtime/
 * today; webhooks and dashboard counters later) decide who hears what.
 */
export type DomainEvent =
  /**
   * `previous`: owner and queue before the change, so viewers the ticket left hear that it left.
   * `hidesNumbers`: the company's LGPD flag when the publisher read it along with the rows (saves realtime/ a read).
   */
  | { type: 'ticket.updated'; ticket: Ticket; previous?: { userId: number | null; queueId: number | null; status?: string }; hidesNumbers?: boolean }
  | { type: 'ticket.deleted'; ticket: TicketScope }
  /** Its unread counter went to 0 (someone read the conversation). */
  | { type: 'ticket.read'; ticket: TicketScope }
  | { type: 'message.created'; message: Message; ticket: Ticket; hidesNumbers?: boolean }
  | { type: 'message.updated'; message: Message; ticket: Ticket; hidesNumbers?: boolean }
  | { type: 'contact.saved'; companyId: number; action: 'create' | 'update'; contact: Contact; hidesNumbers?: boolean }
  | { type: 'contact.deleted'; companyId: number; contactId: number }
  /** A spreadsheet import's progress: only the importing user hears it. */
  | { type: 'contact.importProgress'; companyId: number; userId: number; payload: ContactImportProgressPayload }
  /** A connection's session changed (with its QR code): only the users who manage connections hear it. */
  | { type: 'whatsapp.session'; companyId: number; payload: WhatsappSessionEventPayload }
  /** History import progress of a connection: connection managers only. */
  | { type: 'whatsapp.importProgress'; companyId: number; payload: ImportMessagesEventPayload }
  | CompanyRecord
  | SuperRecord
  /** `company{id}-tag` (the spec's name has no dash after "company"). */
  | { type: 'tag.record'; companyId: number; payload: ListEventPayload<Tag> }
  /** A quick reply the team may see (`visao` or `geral`) goes to the company; a private one to its owner and the admins. */
  | { type: 'quickMessage.record'; companyId: number; ownerId: number | null; shared: boolean; payload: ListEventPayload<QuickMessage> }
  /** `company{id}-schedule`: a scheduled message created, changed (also by the engine) or deleted. */
  | { type: 'schedule.record'; companyId: number; payload: ListEventPayload<Schedule> }
  /** Contact lists, their items and campaigns: admin screens, so only the company's admins hear them (items carry numbers). */
  | CampaignRecord
  /** `company-{companyId}-prompt`: prompts are the admins' business (their keys' masks too). */
  | { type: 'prompt.record'; companyId: number; payload: ListEventPayload<Prompt> }
  /** Platform-wide: every company hears it; a public one (branding) also reaches pages not logged in. */
  | { type: 'platform.setting'; setting: Setting }
  | { type: 'platform.help'; payload: ListEventPayload<Help> }
  /** `company-announcement` (spec 3 §7): every logged-in user of every company hears it. */
  | { type: 'platform.announcement'; payload: ListEventPayload<Announcement> }
  /** A new login: the user's older sessions log out (spec 1 §4 Session). */
  | { type: 'user.signedIn'; companyId: number; userId: number }
  /** Logout or deletion: the user's open sockets are closed. */
  | { type: 'user.signedOut'; companyId: number; userId: number }
  /** A refresh token was reused: the sockets opened with that login's tokens are closed. */
  | { type: 'user.familyRevoked'; companyId: number; userId: number; family: string }
  /** Profile, flags or queues changed: the user's open sockets hold exactly the rooms they may now receive. */
  | { type: 'user.rightsChanged'; companyId: number; userId: number }
  | { type: 'company.deleted'; companyId: number }
  /** Internal chat (spec 3 §7): heard only by its members; `removedUserIds` left it with this change. */
  | { type: 'chat.saved'; companyId: number; action: 'create' | 'update'; chat: Chat; removedUserIds: number[] }
  | { type: 'chat.deleted'; companyId: number; chatId: number; memberIds: number[] }
  | { type: 'chat.message'; companyId: number; chat: Chat; message: ChatMessage }
  /** A member read the chat: the unread counts changed. */
  | { type: 'chat.read'; companyId: number; chat: Chat }
  /** A campaign reached FINALIZADA (published by the campaign engine; outbound webhooks listen). */
  | { type: 'campaign.finished'; companyId: number; campaign: { id: number; name: string; status: string } };

export type DomainEventType = DomainEvent['type'];

/**
 * What a transaction is about to announce, by id, known before its commit: in-transaction
 * subscribers (the outbound webhook outbox) write their rows with it, so they exist iff the
 * change committed. The presented events follow after the commit as usual.
 */
export type TxFact =
  /** `companyId`: the one company of all the ids, when the writer knows it (a company no endpoint listens to then costs no statement). */
  | { type: 'message.created'; messageIds: number[]; companyId?: number }
  /** Tickets whose status may have changed from `previousStatus` (the subscriber compares with the row). */
  | { type: 'ticket.status'; changes: { ticketId: number; previousStatus: string }[] }
  | { type: 'contact.created'; contactIds: number[] }
  | { type: 'campaign.finished'; campaignIds: number[] };
