import {
  can,
  maskNumber,
  normalizeNumber,
  type Contact,
  type ContactProfile,
  type ListContactsQuery,
  type createContactBody,
  type updateContactBody,
} from '@balcao/contracts';
import { and, asc, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { contacts, tickets } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { contactMaskFor } from './lgpd.js';
import { listAllContacts, loadContact, pageContacts, replaceExtraInfo } from './queries.js';
import { conflictAs } from './unique.js';
import type { ContactRow } from './presenter.js';

/** Any user of the company reads and edits its contacts (as in Whaticket); numbers are masked per caller (LGPD). */

const notFound = () => new AppError('ERR_NO_CONTACT_FOUND', 404);
const duplicated = () => new AppError('ERR_DUPLICATED_CONTACT', 409);
const NUMBER_KEY = 'contacts_company_channel_number_key';

/**
 * `company-{id}-contact` to everyone in the company, numbers masked for non-admins when the company hides them
 * (`hidesNumbers`: that flag when the caller read it with its rows, else realtime/ reads it).
 */
export async function emitContact(ctx: AppContext, companyId: number, action: 'create' | 'update', contact: Contact, hidesNumbers?: boolean): Promise<void> {
  await ctx.events.publish({ type: 'contact.saved', companyId, action, contact, hidesNumbers });
}

/** Reloads, announces and answers (masked for the caller) a contact after a write. */
async function afterWrite(ctx: AppContext, by: AuthUser, id: number, action: 'create' | 'update'): Promise<Contact> {
  const contact = await loadContact(ctx.db, by.companyId, id);
  if (!contact) throw notFound();
  await emitContact(ctx, by.companyId, action, contact);
  return (await contactMaskFor(ctx.db, by))(contact);
}

function typedNumber(typed: string): string {
  const number = normalizeNumber(typed);
  if (!number) throw new AppError('ERR_VALIDATION', 400, 'number: invalid', [{ path: 'number', message: 'Invalid number' }]);
  return number;
}

/** The send address of a number typed by hand (the inbound pipeline keeps the one WhatsApp gives). */
const remoteJidOf = (row: Pick<ContactRow, 'channel' | 'isGroup'>, number: string) =>
  row.channel === 'whatsapp' ? `${number}@${row.isGroup ? 'g.us' : 's.whatsapp.net'}` : number;

async function assertNumberFree(db: DbOrTx, companyId: number, channel: ContactRow['channel'], number: string, exceptId?: number) {
  const [clash] = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(
      and(
        eq(contacts.companyId, companyId),
        eq(contacts.channel, channel),
        eq(contacts.number, number),
        exceptId === undefined ? undefined : ne(contacts.id, exceptId),
      ),
    );
  if (clash) throw duplicated();
}

export async function listContacts(ctx: AppContext, by: AuthUser, q: ListContactsQuery) {
  const page = await pageContacts(ctx.db, by.companyId, q);
  const mask = await contactMaskFor(ctx.db, by);
  return { ...page, contacts: page.contacts.map(mask) };
}

export async function listContactsSimple(ctx: AppContext, by: AuthUser, name: string | undefined): Promise<Contact[]> {
  const mask = await contactMaskFor(ctx.db, by);
  return (await listAllContacts(ctx.db, by.companyId, name)).map(mask);
}

export async function getContact(ctx: AppContext, by: AuthUser, id: number): Promise<Contact> {
  const contact = await loadContact(ctx.db, by.companyId, id);
  if (!contact) throw notFound();
  return (await contactMaskFor(ctx.db, by))(contact);
}

/** A WhatsApp contact typed by hand (the number is stored as digits). */
export async function createContact(ctx: AppContext, by: AuthUser, body: z.output<typeof createContactBody>): Promise<Contact> {
  const number = typedNumber(body.number);
  const row = await conflictAs(NUMBER_KEY, 'ERR_DUPLICATED_CONTACT', () =>
    ctx.db.transaction(async (tx) => {
      await assertNumberFree(tx, by.companyId, 'whatsapp', number);
      const [inserted] = await tx
        .insert(contacts)
        .values({
          companyId: by.companyId,
          channel: 'whatsapp',
          name: body.name,
          number,
          remoteJid: remoteJidOf({ channel: 'whatsapp', isGroup: false }, number),
          email: body.email,
          disableBot: body.disableBot ?? false,
        })
        .returning();
      if (!inserted) throw new AppError('ERR_INTERNAL', 500);
      if (body.extraInfo) await replaceExtraInfo(tx, by.companyId, inserted.id, body.extraInfo);
      await ctx.events.record(tx, { type: 'contact.created', contactIds: [inserted.id] });
      return inserted;
    }),
  );
  return afterWrite(ctx, by, row.id, 'create');
}

/**
 * Partial update. A number sent back unchanged — as stored, or as the caller saw it
 * masked — keeps the stored one, so editing a contact under LGPD never overwrites its number.
 */
export async function updateContact(ctx: AppContext, by: AuthUser, id: number, body: z.output<typeof updateContactBody>): Promise<Contact> {
  await conflictAs(NUMBER_KEY, 'ERR_DUPLICATED_CONTACT', () =>
    ctx.db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(contacts)
        .where(and(eq(contacts.companyId, by.companyId), eq(contacts.id, id)))
        .for('update');
      if (!current) throw notFound();
      // The number-only name of an unnamed contact comes back masked just like the number.
      const name = body.name === maskNumber(current.number) && current.name === current.number ? current.name : body.name;
      const sentNumber = body.number;
      const numberChanged = sentNumber !== undefined && sentNumber !== current.number && sentNumber !== maskNumber(current.number);
      const number = numberChanged ? typedNumber(sentNumber) : current.number;
      if (number !== current.number) await assertNumberFree(tx, by.companyId, current.channel, number, id);
      const changes = {
        ...(name === undefined ? {} : { name }),
        ...(body.email === undefined ? {} : { email: body.email }),
        ...(body.disableBot === undefined ? {} : { disableBot: body.disableBot }),
        ...(number === current.number ? {} : { number, remoteJid: remoteJidOf(current, number) }),
      };
      // An extraInfo-only edit leaves the row itself alone.
      if (Object.keys(changes).length > 0) await tx.update(contacts).set(changes).where(eq(contacts.id, id));
      if (body.extraInfo) await replaceExtraInfo(tx, by.companyId, id, body.extraInfo);
    }),
  );
  return afterWrite(ctx, by, id, 'update');
}

/** The toggles of the contact drawer and the block button: one column, then the update event. */
async function setFlags(ctx: AppContext, by: AuthUser, id: number, set: Partial<Record<'acceptAudioMessage' | 'disableBot' | 'active', boolean | SQL>>) {
  const updated = await ctx.db
    .update(contacts)
    .set(set)
    .where(and(eq(contacts.companyId, by.companyId), eq(contacts.id, id)))
    .returning({ id: contacts.id });
  if (updated.length === 0) throw notFound();
  return afterWrite(ctx, by, id, 'update');
}

// A flip reads the flag in the same statement, so two quick clicks flip twice rather than racing.
export const toggleAcceptAudio = (ctx: AppContext, by: AuthUser, id: number) =>
  setFlags(ctx, by, id, { acceptAudioMessage: sql`NOT ${contacts.acceptAudioMessage}` });
export const toggleDisableBot = (ctx: AppContext, by: AuthUser, id: number) => setFlags(ctx, by, id, { disableBot: sql`NOT ${contacts.disableBot}` });
/** Block sets active=false, unblock active=true (spec 2 §4). */
export const setContactActive = (ctx: AppContext, by: AuthUser, id: number, active: boolean) => setFlags(ctx, by, id, { active });

/**
 * `GET /contacts/profile/{number}`: the company's contact with that number (WhatsApp first) and
 * its stored picture. Balcão answers from its own records; it does not ask WhatsApp.
 */
export async function contactProfile(ctx: AppContext, by: AuthUser, typed: string): Promise<ContactProfile> {
  const number = normalizeNumber(typed);
  if (!number) throw notFound();
  const rows = await ctx.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, by.companyId), eq(contacts.number, number)))
    .orderBy(asc(contacts.id));
  const row = rows.find((r) => r.channel === 'whatsapp') ?? rows[0];
  if (!row) throw notFound();
  const { name } = (await contactMaskFor(ctx.db, by))(row);
  return { contactId: row.id, name, urlPicture: row.profilePicUrl, profilePicUrl: row.profilePicUrl };
}

/**
 * `DELETE /contacts/{id}` (permission contacts-page:deleteContact): its tickets, messages,
 * notes and tags go with it (cascade); their rooms hear each ticket's `delete`.
 */
export async function deleteContact(ctx: AppContext, by: AuthUser, id: number): Promise<void> {
  if (!by.super && !can(by.profile, 'contacts-page:deleteContact')) throw new AppError('ERR_NO_PERMISSION', 403);
  await ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    const [row] = await tx
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.companyId, by.companyId), eq(contacts.id, id)))
      .for('update');
    if (!row) throw notFound();
    const gone = await tx
      .select({ id: tickets.id, companyId: tickets.companyId, userId: tickets.userId, queueId: tickets.queueId, status: tickets.status })
      .from(tickets)
      .where(eq(tickets.contactId, id));
    await tx.delete(contacts).where(eq(contacts.id, id));
    for (const ticket of gone) publish({ type: 'ticket.deleted', ticket });
    publish({ type: 'contact.deleted', companyId: by.companyId, contactId: id });
  });
}
