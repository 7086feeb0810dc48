import { CONTACT_COUNT_CAP, CONTACTS_PAGE_SIZE, type Channel, type Contact, type ListContactsQuery } from '@balcao/contracts';
import { and, asc, eq, getTableColumns, ilike, inArray, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { contactCustomFields, contactTags, contacts } from '../../db/schema/index.js';
import { containsPattern } from '../../db/search.js';
import { tagsOfContacts } from '../tags/queries.js';
import { presentContact, type ContactRow } from './presenter.js';
import { isWordTerm, pageByWords } from './word-search.js';

export interface ContactInput {
  companyId: number;
  channel: Channel;
  number: string;
  name: string;
  remoteJid: string;
  isGroup: boolean;
  profilePicUrl?: string | null;
}

/** A known contact's row misses what this input brings (a real name for a placeholder, a first picture, a new JID). */
export function isStale(known: ContactRow, input: ContactInput, name: string): boolean {
  return (
    (known.name === known.number && name !== input.number) ||
    (!!input.profilePicUrl && !known.pictureSourceUrl && input.profilePicUrl !== known.profilePicUrl) ||
    (!!input.remoteJid && input.remoteJid !== known.remoteJid)
  );
}

/** What an insert of a known number changes on its row: a placeholder name, the picture, the JID. */
export const contactUpsertSet = {
  name: sql`CASE WHEN ${contacts.name} = ${contacts.number} OR ${contacts.name} = '' THEN excluded.name ELSE ${contacts.name} END`,
  // Once we hold a copy of the picture, its URL stays until a new copy replaces it (contacts/picture.ts).
  profilePicUrl: sql`CASE WHEN ${contacts.pictureSourceUrl} IS NULL THEN COALESCE(excluded.profile_pic_url, ${contacts.profilePicUrl}) ELSE ${contacts.profilePicUrl} END`,
  remoteJid: sql`CASE WHEN excluded.remote_jid <> '' THEN excluded.remote_jid ELSE ${contacts.remoteJid} END`,
};

/** Insert-or-update of many inputs in one statement (distinct numbers); answers each row with whether it was created. */
async function writeContacts(db: DbOrTx, inputs: (ContactInput & { name: string })[]) {
  return db
    .insert(contacts)
    .values(inputs.map((input) => ({ ...input, profilePicUrl: input.profilePicUrl ?? null })))
    .onConflictDoUpdate({ target: [contacts.companyId, contacts.channel, contacts.number], set: contactUpsertSet })
    .returning({ ...getTableColumns(contacts), created: sql<boolean>`(xmax = 0)` });
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
  if (known && !isStale(known, input, name)) return { contact: known, created: false };
  const [row] = await writeContacts(db, [{ ...input, name }]);
  if (!row) throw new Error('contact upsert returned nothing');
  const { created, ...contact } = row;
  return { contact, created };
}

/**
 * `upsertContact` for many numbers of one company and channel (a campaign's batch): one read
 * of the known ones and one write of the new or stale ones, instead of up to two statements
 * per number. Answers the rows by number.
 */
export async function upsertContacts(db: DbOrTx, companyId: number, channel: Channel, inputs: ContactInput[]): Promise<Map<string, ContactRow>> {
  const byNumber = new Map(inputs.map((input) => [input.number, { ...input, name: input.name.trim() || input.number }]));
  const rows = new Map<string, ContactRow>();
  if (byNumber.size === 0) return rows;
  const known = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.channel, channel), inArray(contacts.number, [...byNumber.keys()])));
  for (const row of known) if (!isStale(row, byNumber.get(row.number)!, byNumber.get(row.number)!.name)) rows.set(row.number, row);
  const missing = [...byNumber.values()].filter((input) => !rows.has(input.number));
  if (missing.length > 0) for (const { created: _created, ...row } of await writeContacts(db, missing)) rows.set(row.number, row);
  return rows;
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

/** SQL: the JSON array of one contact's extra info (in id order, as presentContacts lists it). */
export const extraInfoJson = (contactId: AnyPgColumn | Placeholder | SQL) =>
  sql<Contact['extraInfo']>`(select coalesce(json_agg(json_build_object('id', ${contactCustomFields.id}, 'name', ${contactCustomFields.name}, 'value', ${contactCustomFields.value}) order by ${contactCustomFields.id}), '[]')
    from ${contactCustomFields} where ${contactCustomFields.contactId} = ${contactId})`;

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
 * The `GET /contacts` filter in three parts: the term (a case-insensitive substring of name, number — typed phone
 * punctuation ignored — or e-mail), the rest, and for a term with 4 or more digits the digit-gram condition every
 * match meets (`digitGrams`), which the gram index answers in a few posting lists.
 */
function contactListWhere(db: DbOrTx, companyId: number, q: ListContactsQuery) {
  const term = containsPattern(q.searchParam);
  const digits = q.searchParam.replace(/\D/g, '');
  const scope = and(
    eq(contacts.companyId, companyId),
    q.channel ? eq(contacts.channel, q.channel) : undefined,
    q.isGroup === undefined ? undefined : eq(contacts.isGroup, q.isGroup),
    q.contactTag?.length
      ? inArray(contacts.id, db.select({ id: contactTags.contactId }).from(contactTags).where(inArray(contactTags.tagId, q.contactTag)))
      : undefined,
  );
  const digitsPattern = containsPattern(digits);
  const match = term
    ? or(ilike(contacts.name, term), ilike(contacts.number, term), ilike(contacts.email, term), digitsPattern ? ilike(contacts.number, digitsPattern) : undefined)
    : undefined;
  return { scope, match, grams: term ? digitGrams(digits) : undefined };
}

/**
 * The distinct 4-digit grams of a term's digits as migration 0037's `contact_digit_grams` encodes them, or undefined
 * under 4 digits. A match holds the term (or its digits) inside a field, so the term's digits inside that field's
 * digits: every gram of the term is one of the contact's.
 */
function digitGrams(digits: string): number[] | undefined {
  if (digits.length < 4) return undefined;
  return [...new Set(Array.from({ length: digits.length - 3 }, (_, i) => Number(digits.slice(i, i + 4))))];
}

/**
 * The contacts of `scope` holding every gram, read through the gram index, aliased `contacts` so that the search's
 * ILIKE reads its columns. `OFFSET 0` keeps that ILIKE out of the scan: pushed down, the planner ANDs the gram bitmap
 * with the trigram indexes' (dozens of large posting lists, the cost this index avoids).
 */
const withGrams = (scope: SQL | undefined, grams: number[]) =>
  sql`(select * from ${contacts} where ${scope} and contact_digit_grams(${contacts.name}, ${contacts.number}, ${contacts.email}) @> ${sql.param(grams)}::int[] offset 0) ${contacts}`;

/** Planner switches for the transaction's next statements (`set_config(…, true)`: SET LOCAL). */
const onlyBitmapScans = (on: boolean) =>
  sql`select set_config('enable_seqscan', ${on ? 'off' : 'on'}, true), set_config('enable_indexscan', ${on ? 'off' : 'on'}, true), set_config('enable_indexonlyscan', ${on ? 'off' : 'on'}, true)`;

/** Rows of the company's name order a common term's page may walk before the matches are sorted instead. */
const NAME_WALK_BUDGET = 5000;

/**
 * `GET /contacts`: 20 per page by name (docs/contacts.md "Search at a million contacts").
 * 1. The matching ids, up to CONTACT_COUNT_CAP + 1. A term with 4+ digits reads them through the digit-gram
 *    index (`withGrams`); every other search goes through the trigram indexes only (name, number, e-mail: one BitmapOr):
 *    with a LIMIT the planner would walk the company row by row whenever it guesses a term common, and pay the
 *    whole walk when it is not.
 * 2. Up to the cap, the page is those ids sorted: exact count.
 * 3. Beyond it (a common term, or no term), count is the cap and the page walks the (company, name) index
 *    for at most NAME_WALK_BUDGET rows past the offset; when the matches sit further on (a common first
 *    name sorts together), every match is sorted instead, through the gram or trigram indexes again.
 */
export async function pageContacts(db: DbOrTx, companyId: number, q: ListContactsQuery) {
  const { scope, match, grams } = contactListWhere(db, companyId, q);
  const where = and(scope, match);
  const offset = (q.pageNumber - 1) * CONTACTS_PAGE_SIZE;
  const byName = [asc(contacts.name), asc(contacts.id)];
  const { rows, count, hasMore } = await db.transaction(async (tx) => {
    const bitmapOnly = async <T>(read: () => Promise<T>) => {
      await tx.execute(onlyBitmapScans(true));
      const result = await read();
      await tx.execute(onlyBitmapScans(false));
      return result;
    };
    // A one-word term over the whole company: the word index answers, whatever the number of matches.
    const term = q.searchParam.trim();
    const byWords = isWordTerm(term) && !q.channel && q.isGroup === undefined && !q.contactTag?.length ? await pageByWords(tx, companyId, term, offset) : undefined;
    if (byWords) {
      // Read by id and put in the index's order: with ORDER BY name the planner would walk the company's name index.
      const read = byWords.ids.length ? await tx.select().from(contacts).where(and(eq(contacts.companyId, companyId), inArray(contacts.id, byWords.ids))) : [];
      const byId = new Map(read.map((c) => [c.id, c]));
      const page = byWords.ids.flatMap((id) => byId.get(id) ?? []);
      return { rows: page.slice(0, CONTACTS_PAGE_SIZE), count: Math.max(byWords.count, offset + page.length), hasMore: page.length > CONTACTS_PAGE_SIZE };
    }
    const probe = () => tx.select({ id: contacts.id }).from(contacts).where(where).limit(CONTACT_COUNT_CAP + 1);
    const matches = grams
      ? (await tx.execute<{ id: number }>(sql`select id from ${withGrams(scope, grams)} where ${match} limit ${CONTACT_COUNT_CAP + 1}`)).rows
      : match
        ? await bitmapOnly(probe)
        : await probe();
    if (matches.length <= CONTACT_COUNT_CAP) {
      const ids = matches.map((m) => m.id);
      const page = ids.length > offset ? await tx.select().from(contacts).where(inArray(contacts.id, ids)).orderBy(...byName).limit(CONTACTS_PAGE_SIZE).offset(offset) : [];
      return { rows: page, count: ids.length, hasMore: offset + CONTACTS_PAGE_SIZE < ids.length };
    }
    const sorted = () => tx.select().from(contacts).where(where).orderBy(...byName).limit(CONTACTS_PAGE_SIZE + 1).offset(offset);
    let page = match ? await walkByName(tx, scope, match, offset) : await sorted();
    // Fewer matches than a page in the walked window: they are further on in name order.
    if (!page) page = grams ? await sortedByGrams(tx, scope, grams, match!, offset) : await bitmapOnly(sorted);
    return { rows: page.slice(0, CONTACTS_PAGE_SIZE), count: Math.max(CONTACT_COUNT_CAP, offset + page.length), hasMore: page.length > CONTACTS_PAGE_SIZE };
  });
  return { contacts: await presentContacts(db, rows), count, hasMore };
}

/**
 * The page (one row more) from the first `offset + NAME_WALK_BUDGET` contacts of the scope in name order,
 * or undefined when that window holds fewer matches than the page needs. The window is aliased `contacts`
 * so that `match` reads its columns.
 */
async function walkByName(tx: DbOrTx, scope: SQL | undefined, match: SQL, offset: number): Promise<ContactRow[] | undefined> {
  const { rows } = await tx.execute<{ id: number }>(sql`
    select id from (select * from ${contacts} where ${scope} order by name, id limit ${offset + NAME_WALK_BUDGET}) ${contacts}
    where ${match} order by name, id limit ${CONTACTS_PAGE_SIZE + 1} offset ${offset}`);
  if (rows.length <= CONTACTS_PAGE_SIZE) return undefined;
  const ids = rows.map((r) => r.id);
  return tx.select().from(contacts).where(inArray(contacts.id, ids)).orderBy(asc(contacts.name), asc(contacts.id));
}

/** Every match of a term with digits sorted by name for the page (one row more), read through the gram index. */
async function sortedByGrams(tx: DbOrTx, scope: SQL | undefined, grams: number[], match: SQL, offset: number): Promise<ContactRow[]> {
  const { rows } = await tx.execute<{ id: number }>(sql`
    select id from ${withGrams(scope, grams)} where ${match} order by name, id limit ${CONTACTS_PAGE_SIZE + 1} offset ${offset}`);
  const ids = rows.map((r) => r.id);
  return ids.length ? tx.select().from(contacts).where(inArray(contacts.id, ids)).orderBy(asc(contacts.name), asc(contacts.id)) : [];
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
