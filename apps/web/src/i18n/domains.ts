import type { DomainMessages } from './domain';
import { uiMessages } from '../components/messages';
import { usersMessages } from '../pages/users/messages';
import { queuesMessages } from '../pages/queues/messages';
import { settingsMessages } from '../pages/settings/messages';
import { companiesMessages } from '../pages/companies/messages';
import { helpsMessages } from '../pages/helps/messages';
import { connectionsMessages } from '../pages/connections/messages';
import { connectionSetupMessages } from '../pages/connections/setupMessages';
import { whatsappModalMessages } from '../pages/connections/whatsappModalMessages';
import { allConnectionsMessages } from '../pages/allConnections/messages';
import { ticketsMessages } from '../pages/tickets/messages';
import { contactDrawerMessages } from '../pages/tickets/contact-drawer/messages';
import { conversationMessages } from '../pages/tickets/conversation/messages';

/**
 * Domain texts mounted beside the base locale: one line per screen domain,
 * `key: messages` from `pages/<domain>/messages.ts`.
 */
export const DOMAIN_MESSAGES: Record<string, DomainMessages<object>> = {
  ui: uiMessages,
  users: usersMessages,
  queues: queuesMessages,
  settings: settingsMessages,
  companies: companiesMessages,
  helps: helpsMessages,
  connections: connectionsMessages,
  connectionSetup: connectionSetupMessages,
  whatsappModal: whatsappModalMessages,
  allConnections: allConnectionsMessages,
  tickets: ticketsMessages,
  contactDrawer: contactDrawerMessages,
  conversation: conversationMessages,
};
