import { eq, sql } from 'drizzle-orm';
import { companySettings, contacts } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import { loadContact } from '../../contacts/queries.js';
import { setConsentWait } from '../commands/automation-bot.js';
import { preparedPerDb } from '../commands/prepared.js';
import { markClosed } from '../commands/tickets.js';
import { runInboundBehaviours, type InboundContext } from './inbound.js';
import { sendConnectionMessage } from './send.js';
import { wordsOf } from './words.js';

/** The answers to the consent question (docs/chatbots.md). */
export const LGPD_ACCEPT = '1';
export const LGPD_DECLINE = '2';

/** One read for the settings and the contact's consent, prepared: it runs for every message of a waiting ticket. */
const settingsAndConsent = preparedPerDb((db) =>
  db
    .select({
      settings: companySettings,
      acceptedAt: sql<string | null>`(select ${contacts.lgpdAcceptedAt} from ${contacts} where ${contacts.id} = ${sql.placeholder('contactId')})`,
    })
    .from(companySettings)
    .where(eq(companySettings.companyId, sql.placeholder('companyId')))
    .prepare('behaviours_lgpd_settings'),
);

/**
 * LGPD (step 2 of the inbound order), for a contact who has not accepted yet and a company
 * with `enableLGPD` and an `lgpdMessage`. With `lgpdConsent` the new ticket waits in status
 * lgpd behind the message, the link and the two answers: '1' stores the contact's
 * `lgpdAcceptedAt` and the conversation starts (greeting, bot…), '2' closes the ticket, anything
 * else asks again. Without `lgpdConsent` the message is only a notice on each new ticket.
 * True when it handled the message.
 */
export async function runLgpd(ctx: AppContext, c: InboundContext): Promise<boolean> {
  const { ticket } = c;
  if (ticket.userId !== null || (ticket.status !== 'pending' && ticket.status !== 'lgpd')) return false;
  const [row] = c.known?.lgpdOn === false ? [] : await settingsAndConsent(ctx.db).execute({ companyId: ticket.companyId, contactId: ticket.contactId });
  const settings = row?.settings;
  if (!settings || settings.enableLGPD !== 'enabled' || !settings.lgpdMessage.trim() || row.acceptedAt) {
    // Switched off (or accepted elsewhere) while a ticket waited: let it through.
    if (ticket.status === 'lgpd') await setConsentWait(ctx, ticket, 'pending');
    return false;
  }
  const notice = [settings.lgpdMessage.trim(), settings.lgpdLink.trim()].filter(Boolean).join('\n\n');
  const words = wordsOf(settings.botLanguage);
  const question = `${notice}\n\n*${LGPD_ACCEPT}* - ${words.accept}\n*${LGPD_DECLINE}* - ${words.decline}`;
  const isNew = c.found.created || c.found.reopened;

  if (settings.lgpdConsent !== 'enabled') {
    if (isNew) await sendConnectionMessage(ctx, ticket.id, notice);
    return false;
  }
  if (ticket.status === 'pending') {
    if (!isNew) return false;
    if (await setConsentWait(ctx, ticket, 'lgpd')) await sendConnectionMessage(ctx, ticket.id, question);
    return true;
  }
  const answer = c.body.trim();
  if (answer === LGPD_ACCEPT) {
    await ctx.db.update(contacts).set({ lgpdAcceptedAt: new Date() }).where(eq(contacts.id, ticket.contactId));
    const saved = await loadContact(ctx.db, ticket.companyId, ticket.contactId);
    if (saved) await ctx.events.publish({ type: 'contact.saved', companyId: ticket.companyId, action: 'update', contact: saved });
    if (await setConsentWait(ctx, ticket, 'pending')) {
      // The conversation starts now, as for a new ticket.
      await runInboundBehaviours(ctx, { ...c, ticket: { ...ticket, status: 'pending' }, found: { ...c.found, created: true } });
    }
  } else if (answer === LGPD_DECLINE) {
    await markClosed(ctx, ticket.id);
  } else {
    await sendConnectionMessage(ctx, ticket.id, question);
  }
  return true;
}
