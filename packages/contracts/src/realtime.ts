/** Socket event names (spec 1 §7, API-CONTRACT "Realtime"). */
export const companyEvent = (companyId: number, name: CompanyEventName) => `company-${companyId}-${name}` as const;

export type CompanyEventName =
  | 'auth'
  | 'user'
  | 'ticket'
  | 'appMessage'
  | 'contact'
  | 'contactImport'
  | 'whatsapp'
  | 'whatsappSession'
  | 'chat'
  | 'queue'
  | 'settings'
  | 'notification'
  | 'plan'
  | 'company'
  | 'help'
  | 'quickemessage'
  | 'payment'
  | 'ContactList'
  | 'ContactListItem'
  | 'campaign'
  | 'prompt'
  | 'queueIntegration'
  | 'file';

export const importMessagesEvent = (companyId: number) => `importMessages-${companyId}` as const;

export interface AuthEventPayload {
  action: 'update';
  user: { id: number };
}

/** Events a client may emit; the server honours them only within the user's rights. */
export const CLIENT_EVENTS = [
  'joinNotification',
  'leaveNotification',
  'joinTickets',
  'leaveTickets',
  'joinChatBox',
  'joinChatBoxLeave',
  'userStatus',
] as const;
export type ClientEventName = (typeof CLIENT_EVENTS)[number];

/** `company-{id}-user`: the full user (with queues) on create/update, the id on delete. */
export type UserEventPayload<TUser = unknown> =
  | { action: 'create' | 'update'; user: TUser }
  | { action: 'delete'; userId: number };

/** `company-{id}-settings`: a global or company setting changed. */
export interface SettingsEventPayload {
  action: 'update';
  setting: { key: string; value: string | null };
}

/**
 * Lists without a payload of their own in the spec (`queue`, `plan`, `company`, `help`):
 * the record on create/update, its id on delete (API-CONTRACT "Realtime").
 */
export type ListEventPayload<T> = { action: 'create' | 'update'; record: T } | { action: 'delete'; id: number };

/** Namespace that anyone may join (the login page too): it carries only the public settings' changes. */
export const PUBLIC_NAMESPACE = '/public';
