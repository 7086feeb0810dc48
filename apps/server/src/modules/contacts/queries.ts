import { CONTACTS_PAGE_SIZE, type Channel, type Contact, type ListContactsQuery } from '@balcao/contracts';
import { and, asc, count, eq, getTableColumns, ilike, inArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { contactCustomFields, contactTags, contacts } from '../../db/schema/index.js';
import { containsPattern } from '../../db/search.js';
import { tagsOfContacts } from '../tags/queries.js';
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
/** `read`: the contact's row when the caller has just read it (null: there was none), so it is not read twice. */
export async function upsertContact(db: DbOrTx, input: ContactInput, read?: ContactRow | null): Promise<{ contact: ContactRow; created: boolean }> {
  const name = input.name.trim() || input.number;
  // Most messages come from known contacts: a read, and no write when nothing changed.
  const known =
    read !== undefined
      ? read
      : (
          await db
            .select()
            .from(contacts)
            .where(and(eq(contacts.companyId, input.companyId), eq(contacts.channel, input.channel), eq(contacts.number, input.number)))
        )[0];
  const stale =
    known &&
    ((known.name === known.number && name !== input.number) ||
      (!!input.profilePicUrl && !known.pictureSourceUrl && input.profilePicUrl !== known.profilePicUrl) ||
      (!!input.remoteJid && input.remoteJid !== known.remoteJid));
  if (known && !stale) return { contact: known, created: false };
  const [row] = await db
    .insert(contacts)
    .values({ ...input, name, profilePicUrl: input.profilePicUrl ?? null })
    .onConflictDoUpdate({
      target: [contacts.companyId, contacts.channel, contacts.number],
      set: {
        name: sql`CASE WHEN ${contacts.name} = ${contacts.number} OR ${contacts.name} = '' THEN excluded.name ELSE ${contacts.name} END`,
        // Once we hold a copy of the picture, its URL stays until a new copy replaces it (contacts/picture.ts).
        profilePicUrl: sql`CASE WHEN ${contacts.pictureSourceUrl} IS NULL THEN COALESCE(excluded.profile_pic_url, ${contacts.profilePicUrl}) ELSE ${contacts.profilePicUrl} END`,
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
  return row ? (await presentContacts(db, [row]))[0] : undefined;
}

/** Contacts shaped for the API with their extra info and tags: two more queries whatever their number. */
export async function presentContacts(db: DbOrTx, rows: ContactRow[]): Promise<Contact[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [fields, tagMap] = await Promise.all([
    db
      .select({ contactId: contactCustomFields.contactId, id: contactCustomFields.id, name: contactCustomFields.name, value: contactCustomFields.value })
      .from(contactCustomFields)
      .where(inArray(contactCustomFields.contactId, ids))
      .orderBy(asc(contactCustomFields.id)),
    tagsOfContacts(db, ids),
  ]);
  return rows.map((row) =>
    presentContact(
      row,
      fields.filter((f) => f.contactId === row.id).map(({ id, name, value }) => ({ id, name, value })),
      tagMap.get(row.id) ?? [],
    ),
  );
}

/**
 * `GET /contacts`: by name, 20 per page; the search is a case-insensitive substring of
 * name, number or e-mail (trigram indexes on name and number), typed phone punctuation ignored for the number.
 */
export async function pageContacts(db: DbOrTx, companyId: number, q: ListContactsQuery) {
  const term = containsPattern(q.searchParam);
  const digits = containsPattern(q.searchParam.replace(/\D/g, ''));
  const where = and(
    eq(contacts.companyId, companyId),
    term ? or(ilike(contacts.name, term), ilike(contacts.number, term), ilike(contacts.email, term), digits ? ilike(contacts.number, digits) : undefined) : undefined,
    q.channel ? eq(contacts.channel, q.channel) : undefined,
    q.isGroup === undefined ? undefined : eq(contacts.isGroup, q.isGroup),
    q.contactTag?.length
      ? inArray(contacts.id, db.select({ id: contactTags.contactId }).from(contactTags).where(inArray(contactTags.tagId, q.contactTag)))
      : undefined,
  );
  const [total] = await db.select({ n: count() }).from(contacts).where(where);
  const rows = await db
    .select()
    .from(contacts)
    .where(where)
    .orderBy(asc(contacts.name), asc(contacts.id))
    .limit(CONTACTS_PAGE_SIZE)
    .offset((q.pageNumber - 1) * CONTACTS_PAGE_SIZE);
  const n = total?.n ?? 0;
  return { contacts: await presentContacts(db, rows), count: n, hasMore: q.pageNumber * CONTACTS_PAGE_SIZE < n };
}

/** `GET /contacts/list`: the whole company's contacts by name (a substring of it, when given). */
export async function listAllContacts(db: DbOrTx, companyId: number, name: string | undefined): Promise<Contact[]> {
  const term = containsPattern(name);
  const rows = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), term ? ilike(contacts.name, term) : undefined))
    .orderBy(asc(contacts.name), asc(contacts.id));
  return presentContacts(db, rows);
}

/** `extraInfo` is replaced as a whole (spec 2 §7: the kanban value, or an empty list to clear). */
export async function replaceExtraInfo(db: DbOrTx, companyId: number, contactId: number, list: { name: string; value: string }[]): Promise<void> {
  await db.delete(contactCustomFields).where(eq(contactCustomFields.contactId, contactId));
  if (list.length > 0) await db.insert(contactCustomFields).values(list.map((f) => ({ ...f, companyId, contactId })));
}
