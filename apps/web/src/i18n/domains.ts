import type { i18n as I18n } from 'i18next';
import { LANGUAGES } from '@balcao/contracts';
import { withDomains, type DomainMessages } from './domain';
import { usersMessages } from '../pages/users/texts';
import { queuesMessages } from '../pages/queues/texts';
import { settingsMessages } from '../pages/settings/texts';
import { companiesMessages } from '../pages/companies/texts';
import { helpsMessages } from '../pages/helps/texts';
import { announcementsMessages } from '../pages/announcements/texts';
import { connectionsMessages } from '../pages/connections/texts';
import { connectionSetupMessages } from '../pages/connections/setupTexts';
import { whatsappModalMessages } from '../pages/connections/whatsappModalTexts';
import { allConnectionsMessages } from '../pages/allConnections/texts';
import { financeiroMessages } from '../pages/financeiro/texts';
import { ticketsMessages } from '../pages/tickets/texts';
import { contactDrawerMessages } from '../pages/tickets/contact-drawer/texts';
import { conversationMessages } from '../pages/tickets/conversation/texts';
import { contactsMessages } from '../pages/contacts/texts';
import { tagsMessages } from '../pages/tags/texts';
import { quickMessagesMessages } from '../pages/quick-messages/texts';
import { kanbanMessages } from '../pages/kanban/texts';
import { schedulesMessages } from '../pages/schedules/texts';
import { twoFactorMessages } from '../pages/profile/texts';

/**
 * The logged-in screens' texts, mounted beside the base locale: one line per
 * screen domain, `key: messages` from `pages/<domain>/texts.ts`. They download
 * with the app shell, not with /login (the public pages use the base locale and `ui`).
 * A screen no other chunk renders mounts its own texts instead (`./mount`).
 */
export const SCREEN_DOMAIN_MESSAGES: Record<string, DomainMessages<object>> = {
  users: usersMessages,
  queues: queuesMessages,
  settings: settingsMessages,
  companies: companiesMessages,
  helps: helpsMessages,
  announcements: announcementsMessages,
  connections: connectionsMessages,
  connectionSetup: connectionSetupMessages,
  whatsappModal: whatsappModalMessages,
  allConnections: allConnectionsMessages,
  financeiro: financeiroMessages,
  tickets: ticketsMessages,
  contactDrawer: contactDrawerMessages,
  conversation: conversationMessages,
  contacts: contactsMessages,
  tags: tagsMessages,
  quickMessages: quickMessagesMessages,
  kanban: kanbanMessages,
  schedules: schedulesMessages,
  twoFactor: twoFactorMessages,
};

/** Adds the screens' texts to every language; the shell calls it once as its chunk loads. */
export function addScreenTexts(i18n: I18n): void {
  for (const lang of LANGUAGES) i18n.addResourceBundle(lang, 'translation', withDomains({}, lang, SCREEN_DOMAIN_MESSAGES), true, false);
}
