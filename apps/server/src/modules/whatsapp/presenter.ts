import type { Whatsapp } from '@balcao/contracts';
import type { whatsapps } from '../../db/schema/index.js';

export type WhatsappRow = typeof whatsapps.$inferSelect;

export interface PresentOptions {
  queues: Whatsapp['queues'];
  /** Callers who may edit connections: only they see the token and the QR code. */
  manager: boolean;
  company?: { id: number; name: string };
  prompt?: Whatsapp['prompt'];
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * The one place that shapes a connection for the API and the socket. The Baileys
 * session lives in another table and the page access token is left out here, so
 * neither can reach a client.
 */
export function presentWhatsapp(row: WhatsappRow, opts: PresentOptions): Whatsapp {
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    number: row.number,
    channel: row.channel,
    status: row.status,
    retries: row.retries,
    isDefault: row.isDefault,
    provider: row.provider,
    ...(opts.manager ? { token: row.token, qrcode: row.qrcode } : {}),
    facebookPageId: row.facebookPageId,
    instagramAccountId: row.instagramAccountId,
    greetingMessage: row.greetingMessage,
    complationMessage: row.complationMessage,
    outOfHoursMessage: row.outOfHoursMessage,
    ratingMessage: row.ratingMessage,
    maxUseBotQueues: row.maxUseBotQueues,
    timeUseBotQueues: row.timeUseBotQueues,
    timeSendQueue: row.timeSendQueue,
    sendIdQueue: row.sendIdQueue,
    expiresTicket: row.expiresTicket,
    whenExpiresTicket: row.whenExpiresTicket,
    expiresTicketNPS: row.expiresTicketNPS,
    maxUseBotQueuesNPS: row.maxUseBotQueuesNPS,
    expiresInactiveMessage: row.expiresInactiveMessage,
    timeInactiveMessage: row.timeInactiveMessage,
    inactiveMessage: row.inactiveMessage,
    timeCreateNewTicket: row.timeCreateNewTicket,
    allowGroup: row.allowGroup,
    groupAsTicket: row.groupAsTicket,
    enableImportMessage: row.enableImportMessage,
    importOldMessages: iso(row.importOldMessages),
    importRecentMessages: iso(row.importRecentMessages),
    importOldMessagesGroups: row.importOldMessagesGroups,
    closedTicketsPostImported: row.closedTicketsPostImported,
    queueIdImportMessages: row.queueIdImportMessages,
    statusImportMessages: row.statusImportMessages,
    integrationId: row.integrationId,
    promptId: row.promptId,
    prompt: opts.prompt ?? null,
    greetingMediaAttachment: row.greetingMediaAttachment,
    collectiveVacationStart: iso(row.collectiveVacationStart),
    collectiveVacationEnd: iso(row.collectiveVacationEnd),
    collectiveVacationMessage: row.collectiveVacationMessage,
    schedules: row.schedules,
    queues: opts.queues,
    ...(opts.company ? { company: opts.company } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
