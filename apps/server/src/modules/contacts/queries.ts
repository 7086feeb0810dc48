import type { Channel, Contact } from '@balcao/contracts';
import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { contactCustomFields, contacts } from '../../db/schema/index.js';
import { presentContact, type ContactRow } from './presenter.js';

export interface ContactInput {
  companyId: number;
  channel: Channel;
  number: string;
  name: string;
  remoteJid: string;
  isGroup: boolean;
  profilePicUrl?: string | null;
}

/**
 * Insert-or-return on UNIQUE (company_id, channel, number), so concurrent first
 * messages of one new contact converge on one row. A name still equal to the
 * number (a placeholder) is replaced by a real one; a name someone typed is kept.
 */
export async function upsertContact(db: DbOrTx, input: ContactInput): Promise<{ contact: ContactRow; created: boolean }> {
  const name = input.name.trim() || input.number;
  // Most messages come from known contacts: a read, and no write when nothing changed.
  const [known] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, input.companyId), eq(contacts.channel, input.channel), eq(contacts.number, input.number)));
  const stale =
    known &&
    ((known.name === known.number && name !== input.number) ||
      (!!input.profilePicUrl && input.profilePicUrl !== known.profilePicUrl) ||
      (!!input.remoteJid && input.remoteJid !== known.remoteJid));
  if (known && !stale) return { contact: known, created: false };
  const [row] = await db
    .insert(contacts)
    .values({ ...input, name, profilePicUrl: input.profilePicUrl ?? null })
    .onConflictDoUpdate({
      target: [contacts.companyId, contacts.channel, contacts.number],
      set: {
        name: sql`CASE WHEN ${contacts.name} = ${contacts.number} OR ${contacts.name} = '' THEN excluded.name ELSE ${contacts.name} END`,
        profilePicUrl: sql`COALESCE(excluded.profile_pic_url, ${contacts.profilePicUrl})`,
        remoteJid: sql`CASE WHEN excluded.remote_jid <> '' THEN excluded.remote_jid ELSE ${contacts.remoteJid} END`,
      },
    })
    .returning({ ...getTableColumns(contacts), created: sql<boolean>`(xmax = 0)` });
  if (!row) throw new Error('contact upsert returned nothing');
  const { created, ...contact } = row;
  return { contact, created };
}

export async function findContact(db: DbOrTx, companyId: number, id: number): Promise<ContactRow | undefined> {
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.id, id)));
  return row;
}

export async function contactExtraInfo(db: DbOrTx, contactId: number) {
  return db
    .select({ id: contactCustomFields.id, name: contactCustomFields.name, value: contactCustomFields.value })
    .from(contactCustomFields)
    .where(eq(contactCustomFields.contactId, contactId))
    .orderBy(asc(contactCustomFields.id));
}

/** The contact shaped for the API, or undefined outside the company. */
export async function loadContact(db: DbOrTx, companyId: number, id: number): Promise<Contact | undefined> {
  const row = await findContact(db, companyId, id);
  return row ? presentContact(row, await contactExtraInfo(db, id)) : undefined;
}
