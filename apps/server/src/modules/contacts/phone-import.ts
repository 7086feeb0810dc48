import type { PhoneImportResult } from '@balcao/contracts';
import { and, asc, desc, eq } from 'drizzle-orm';
import { whatsapps } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { phoneDigits } from './phone.js';
import { upsertContact } from './queries.js';

/** What of the connected phone becomes contacts: its address book, or the people it has chats with. */
export type PhoneSource = 'contacts' | 'chats';

/**
 * `POST /contacts/import` (the address book) and `POST /contacts/import/chats` (the chats): people
 * on the company's connected WhatsApp phone (its default connection first) become contacts. A
 * number the company already has keeps the name someone gave it (a placeholder name, the number
 * itself, takes the phone's name).
 */
export async function importFromPhone(ctx: AppContext, by: AuthUser, source: PhoneSource): Promise<PhoneImportResult> {
  const [connection] = await ctx.db
    .select()
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, by.companyId), eq(whatsapps.channel, 'whatsapp'), eq(whatsapps.status, 'CONNECTED')))
    .orderBy(desc(whatsapps.isDefault), asc(whatsapps.id))
    .limit(1);
  if (!connection) throw new AppError('ERR_NO_DEF_WAPP_FOUND', 404);
  const adapter = ctx.channels.adapterFor('whatsapp');
  const people = (await (source === 'chats' ? adapter.phoneChats?.(connection) : adapter.phoneContacts?.(connection))) ?? [];
  let created = 0;
  let updated = 0;
  for (const entry of people) {
    const number = phoneDigits(`+${entry.number}`);
    if (!number) continue;
    const saved = await upsertContact(ctx.db, {
      companyId: by.companyId,
      channel: 'whatsapp',
      number,
      name: entry.name || number,
      remoteJid: `${number}@s.whatsapp.net`,
      isGroup: false,
    });
    if (saved.created) created += 1;
    else updated += 1;
  }
  return { total: people.length, created, updated, ignored: people.length - created - updated };
}
