import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { Connection } from '../src/channels/adapter.js';
import type { Db } from '../src/db/client.js';
import { messages } from '../src/db/schema/index.js';
import type { AppContext } from '../src/http/context.js';
import { processInbound } from '../src/modules/conversations/inbound.js';

/**
 * A customer's text through the real inbound pipeline, as a channel adapter hands it over (the
 * bot, router and integration steps run after it is stored). Throws unless it was stored.
 */
export async function customerText(ctx: AppContext, connection: Connection, from: string, body: string) {
  const result = await processInbound(ctx, connection, {
    kind: 'message',
    wid: `m_${randomUUID()}`,
    fromMe: false,
    body,
    mediaType: 'chat',
    at: new Date(),
    chat: { number: from, name: 'Cliente', remoteJid: from, isGroup: false },
    raw: {},
  });
  if (result.outcome !== 'stored') throw new Error(result.outcome);
  return result;
}

/** What was sent on a ticket (the bot's and the attendants' messages), oldest first. */
export const outgoingOf = (db: Db, ticketId: number) =>
  db
    .select()
    .from(messages)
    .where(and(eq(messages.ticketId, ticketId), eq(messages.fromMe, true)))
    .orderBy(asc(messages.id));
