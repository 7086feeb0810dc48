import type { TicketNote, createTicketNoteBody } from '@balcao/contracts';
import { and, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { ticketNotes, users } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { isAdminCaller } from '../contacts/lgpd.js';
import { findContact } from '../contacts/queries.js';
import { visibleTicket } from '../messages/access.js';
import { loadViewer } from '../tickets/visibility.js';

/** Notes about a contact written within one of its tickets (the contact drawer): whoever may see the ticket. */

type NoteRow = typeof ticketNotes.$inferSelect;
const notFound = () => new AppError('ERR_NO_NOTE_FOUND', 404);

function presentNote(row: NoteRow, user: { id: number; name: string } | null): TicketNote {
  return {
    id: row.id,
    note: row.note,
    userId: row.userId,
    user,
    ticketId: row.ticketId,
    contactId: row.contactId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The ticket, visible to the caller (404 / 403), and the contact, which must be that ticket's. */
async function ticketAndContact(ctx: AppContext, by: AuthUser, ticketId: number, contactId: number) {
  const ticket = await visibleTicket(ctx.db, await loadViewer(ctx.db, by), String(ticketId));
  if (ticket.contactId !== contactId || !(await findContact(ctx.db, by.companyId, contactId))) {
    throw new AppError('ERR_NO_CONTACT_FOUND', 404);
  }
  return ticket;
}

async function notesWhere(db: DbOrTx, where: ReturnType<typeof and>): Promise<TicketNote[]> {
  const rows = await db
    .select({ note: ticketNotes, user: { id: users.id, name: users.name } })
    .from(ticketNotes)
    .leftJoin(users, eq(users.id, ticketNotes.userId))
    .where(where)
    .orderBy(desc(ticketNotes.createdAt), desc(ticketNotes.id));
  return rows.map((r) => presentNote(r.note, r.user));
}

export async function createNote(ctx: AppContext, by: AuthUser, body: z.output<typeof createTicketNoteBody>): Promise<TicketNote> {
  const ticket = await ticketAndContact(ctx, by, body.ticketId, body.contactId);
  const [row] = await ctx.db
    .insert(ticketNotes)
    .values({ companyId: by.companyId, note: body.note, userId: by.id, ticketId: ticket.id, contactId: body.contactId })
    .returning({ id: ticketNotes.id });
  if (!row) throw new AppError('ERR_INTERNAL', 500);
  const [note] = await notesWhere(ctx.db, and(eq(ticketNotes.id, row.id)));
  if (!note) throw notFound();
  return note;
}

/** `GET /ticket-notes/list`: the notes of that ticket and contact, newest first. */
export async function listNotes(ctx: AppContext, by: AuthUser, ticketId: number, contactId: number): Promise<TicketNote[]> {
  await ticketAndContact(ctx, by, ticketId, contactId);
  return notesWhere(
    ctx.db,
    and(eq(ticketNotes.companyId, by.companyId), eq(ticketNotes.ticketId, ticketId), eq(ticketNotes.contactId, contactId)),
  );
}

/** Only its author or an admin deletes a note (403 otherwise). */
export async function deleteNote(ctx: AppContext, by: AuthUser, id: number): Promise<void> {
  const [row] = await ctx.db
    .select()
    .from(ticketNotes)
    .where(and(eq(ticketNotes.companyId, by.companyId), eq(ticketNotes.id, id)));
  if (!row) throw notFound();
  if (row.userId !== by.id && !isAdminCaller(by)) throw new AppError('ERR_NO_PERMISSION', 403);
  await ctx.db.delete(ticketNotes).where(eq(ticketNotes.id, id));
}
