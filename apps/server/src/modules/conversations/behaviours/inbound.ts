import { NPS_MAX, NPS_MIN } from '@balcao/contracts';
import { eq, sql } from 'drizzle-orm';
import { ticketRatings, tickets } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import { markClosed } from '../commands/tickets.js';
import type { FoundTicket } from '../commands/ticket-rows.js';
import type { TicketRow } from '../../tickets/presenter.js';
import type { Connection } from '../../../channels/adapter.js';
import { runChatbot } from './chatbot.js';
import { runLgpd } from './lgpd.js';
import { isOnVacation } from './hours.js';
import { isOutOfHours } from './out-of-hours.js';
import { answerWithPrompt } from './prompt.js';
import { runIntegrationStep } from './integration.js';
import { sendConnectionMessage } from './send.js';
import { sendConfirmedCampaignMessages } from './campaign-confirmation.js';
import type { Known } from './quiet.js';

export interface InboundContext {
  connection: Connection;
  found: FoundTicket;
  /** The ticket after the message was stored. */
  ticket: TicketRow;
  body: string;
  /** The stored customer message (what an integration receives). */
  messageId?: number;
  /** What the batch's read found (quiet.ts): a step skips its own read when it found nothing. */
  known?: Known;
}

/**
 * Connection behaviours after a customer's message: the NPS answer of a ticket
 * waiting for its rating; else collective vacation, out-of-hours (company
 * `scheduleType` = company or connection: out-of-hours.ts), the queue chatbot (chatbot.ts) when the connection has
 * queues, else the greeting of a new or reopened ticket — each at most once per ticket.
 * Group tickets get none of them.
 */
export async function runInboundBehaviours(ctx: AppContext, c: InboundContext): Promise<void> {
  const { connection, ticket } = c;
  if (ticket.isGroup) return;
  if (ticket.status === 'nps' && !c.found.created) return handleRatingAnswer(ctx, connection, ticket, c.body);
  if (c.known?.awaitingCampaign !== false && (await sendConfirmedCampaignMessages(ctx, ticket))) return;
  if (await runLgpd(ctx, c)) return;

  const now = new Date();
  if (connection.collectiveVacationMessage.trim() && isOnVacation(connection.collectiveVacationStart, connection.collectiveVacationEnd, now)) {
    if (await markOnce(ctx, ticket.id, 'vacationSentAt')) await sendConnectionMessage(ctx, ticket.id, connection.collectiveVacationMessage);
    return;
  }
  if (connection.outOfHoursMessage.trim() && (await isOutOfHours(ctx, connection, now))) {
    if (await markOnce(ctx, ticket.id, 'outOfHoursSentAt')) await sendConnectionMessage(ctx, ticket.id, connection.outOfHoursMessage);
    return;
  }
  if (await runIntegrationStep(ctx, c)) return;
  if (await answerWithPrompt(ctx, c)) return;
  if (await runChatbot(ctx, c)) return;
  if ((c.found.created || c.found.reopened) && connection.greetingMessage.trim()) {
    await sendConnectionMessage(ctx, ticket.id, connection.greetingMessage, connection.greetingMediaAttachment);
  }
}

const RATING = new RegExp(`^\\s*(\\d{1,2})\\s*$`);

/** A 0–10 answer is stored and the farewell closes the ticket; anything else asks again, up to maxUseBotQueuesNPS times. */
async function handleRatingAnswer(ctx: AppContext, connection: Connection, ticket: TicketRow, body: string): Promise<void> {
  const match = RATING.exec(body);
  const rate = match ? Number(match[1]) : NaN;
  if (rate >= NPS_MIN && rate <= NPS_MAX) {
    await ctx.db
      .insert(ticketRatings)
      .values({ companyId: ticket.companyId, ticketId: ticket.id, userId: ticket.userId, rate })
      .onConflictDoUpdate({ target: ticketRatings.ticketId, set: { rate, userId: ticket.userId } });
    if (connection.complationMessage.trim()) await sendConnectionMessage(ctx, ticket.id, connection.complationMessage);
    await markClosed(ctx, ticket.id);
    return;
  }
  const [row] = await ctx.db
    .update(tickets)
    .set({ npsAttempts: sql`${tickets.npsAttempts} + 1` })
    .where(eq(tickets.id, ticket.id))
    .returning({ attempts: tickets.npsAttempts });
  if ((row?.attempts ?? 0) >= connection.maxUseBotQueuesNPS) await markClosed(ctx, ticket.id);
  else await sendConnectionMessage(ctx, ticket.id, connection.ratingMessage);
}

/** Sets the flag if unset; true for the caller that set it (so concurrent messages send once). */
async function markOnce(ctx: AppContext, ticketId: number, flag: 'vacationSentAt' | 'outOfHoursSentAt'): Promise<boolean> {
  const column = tickets[flag];
  const rows = await ctx.db
    .update(tickets)
    .set({ [flag]: new Date() })
    .where(sql`${tickets.id} = ${ticketId} AND ${column} IS NULL`)
    .returning({ id: tickets.id });
  return rows.length > 0;
}
