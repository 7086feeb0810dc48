import { eq } from 'drizzle-orm';
import { login, createCompanyWithAdmin, type LoggedIn, type TestApp } from './helpers.js';
import { createConnection } from './connections.js';
import { createPlainUser } from './roles.js';
import { createContact, createQueue, createTicketRow, joinQueues } from './tickets.js';
import { contactCustomFields, contactTags, messages, tags, ticketTags, tickets } from '../src/db/schema/index.js';

/**
 * The visibility matrix's company (docs/inbox.md "Visibility"), written straight to the
 * database. Every plain user belongs to Q1 only; `peer` (Q1, Q2) owns tickets too.
 *
 * | ticket | status  | queue | owner | notes |
 * |--------|---------|-------|-------|-------|
 * | T1     | open    | Q1    | none  | tag A; created 2025-01-15; contact number 5511999990001 |
 * | T2     | open    | Q1    | peer  | tag B; connection W2; message "o parafuso especial chegou" |
 * | T3     | open    | Q2    | peer  | contact "Maria Zebra"; 1 unread |
 * | T4     | pending | Q1    | —     | tag A; 2 unread |
 * | T5     | pending | Q2    | —     | |
 * | T6     | pending | —     | —     | |
 * | T7     | closed  | Q1    | none  | message "parafuso dourado" |
 * | T8     | closed  | Q1    | peer  | contact "Zebra Ltda"; connection W2 |
 * | T9     | closed  | Q2    | peer  | message "Parafuso" |
 * | T10    | group   | Q1    | —     | |
 * | T11    | open    | Q2    | none  | (the `none` user's own ticket in a queue they lack) |
 * | T12    | open    | —     | peer  | |
 *
 * "none" is the plain user without any ticket flag. The other company holds one
 * ticket that matches every search ("Zebra", "parafuso") and tag C.
 */
export const LABELS = ['T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T7', 'T8', 'T9', 'T10', 'T11', 'T12'] as const;
export type Label = (typeof LABELS)[number];

export interface InboxFixture {
  companyId: number;
  admin: LoggedIn;
  none: LoggedIn;
  allTicket: LoggedIn;
  allHistoric: LoggedIn;
  allUserChat: LoggedIn;
  peerId: number;
  q1: number;
  q2: number;
  w1: number;
  w2: number;
  tagA: number;
  tagB: number;
  tickets: Record<Label, typeof tickets.$inferSelect>;
  labelOf: Map<number, Label>;
  other: { admin: LoggedIn; ticketId: number; ticketUuid: string; tagC: number };
}

export async function seedInbox(t: TestApp): Promise<InboxFixture> {
  const { db } = t;
  const own = await createCompanyWithAdmin(db);
  const companyId = own.company.id;
  const q1 = (await createQueue(db, companyId, 'Q1')).id;
  const q2 = (await createQueue(db, companyId, 'Q2')).id;
  const w1 = (await createConnection(db, companyId, { name: 'W1' })).id;
  const w2 = (await createConnection(db, companyId, { name: 'W2' })).id;

  const none = await createPlainUser(t, companyId);
  const allTicket = await createPlainUser(t, companyId, { allTicket: 'enabled' });
  const allHistoric = await createPlainUser(t, companyId, { allHistoric: 'enabled' });
  const allUserChat = await createPlainUser(t, companyId, { allUserChat: 'enabled', allowGroup: true });
  const peer = await createPlainUser(t, companyId);
  for (const u of [none, allTicket, allHistoric, allUserChat]) await joinQueues(db, companyId, u.user.id, [q1]);
  await joinQueues(db, companyId, peer.user.id, [q1, q2]);

  const [tagA] = await db.insert(tags).values({ companyId, name: 'Tag A', color: '#aa0000' }).returning();
  const [tagB] = await db.insert(tags).values({ companyId, name: 'Tag B', color: '#00bb00' }).returning();

  const base = Date.parse('2026-06-01T10:00:00Z');
  type Spec = Partial<typeof tickets.$inferInsert> & { contactName?: string; number?: string; body?: string; tag?: number };
  const specs: Record<Label, Spec> = {
    T1: { status: 'open', queueId: q1, userId: none.user.id, tag: tagA!.id, createdAt: new Date('2025-01-15T12:00:00Z'), number: '5511999990001' },
    T2: { status: 'open', queueId: q1, userId: peer.user.id, tag: tagB!.id, whatsappId: w2, body: 'o parafuso especial chegou' },
    T3: { status: 'open', queueId: q2, userId: peer.user.id, contactName: 'Maria Zebra', unreadMessages: 1 },
    T4: { status: 'pending', queueId: q1, tag: tagA!.id, unreadMessages: 2 },
    T5: { status: 'pending', queueId: q2 },
    T6: { status: 'pending' },
    T7: { status: 'closed', queueId: q1, userId: none.user.id, body: 'parafuso dourado' },
    T8: { status: 'closed', queueId: q1, userId: peer.user.id, contactName: 'Zebra Ltda', whatsappId: w2 },
    T9: { status: 'closed', queueId: q2, userId: peer.user.id, body: 'Parafuso' },
    T10: { status: 'group', queueId: q1, isGroup: true },
    T11: { status: 'open', queueId: q2, userId: none.user.id },
    T12: { status: 'open', userId: peer.user.id },
  };
  const rows = {} as InboxFixture['tickets'];
  const labelOf = new Map<number, Label>();
  for (const [i, label] of LABELS.entries()) {
    const { contactName, number, body, tag, ...fields } = specs[label];
    const contact = await createContact(db, companyId, { name: contactName ?? `Cliente ${label}`, ...(number ? { number } : {}) });
    const row = await createTicketRow(db, {
      companyId,
      contactId: contact.id,
      whatsappId: w1,
      updatedAt: new Date(base + i * 60_000),
      ...fields,
    });
    if (body) await db.insert(messages).values({ companyId, ticketId: row.id, contactId: contact.id, whatsappId: row.whatsappId, body });
    if (tag) await db.insert(ticketTags).values({ ticketId: row.id, tagId: tag });
    rows[label] = row;
    labelOf.set(row.id, label);
  }
  // Includes of the full shape: the contact's extra info and tags.
  await db.insert(contactCustomFields).values({ companyId, contactId: rows.T1.contactId, name: 'valor', value: '10.50' });
  await db.insert(contactTags).values({ contactId: rows.T1.contactId, tagId: tagB!.id });

  const other = await createCompanyWithAdmin(db);
  const otherW = (await createConnection(db, other.company.id, { name: 'Other W' })).id;
  const otherContact = await createContact(db, other.company.id, { name: 'Zebra Outra' });
  const otherTicket = await createTicketRow(db, { companyId: other.company.id, contactId: otherContact.id, whatsappId: otherW, status: 'open', unreadMessages: 3 });
  await db.insert(messages).values({ companyId: other.company.id, ticketId: otherTicket.id, body: 'parafuso' });
  const [tagC] = await db.insert(tags).values({ companyId: other.company.id, name: 'Tag C', color: '#0000cc' }).returning();
  await db.insert(ticketTags).values({ ticketId: otherTicket.id, tagId: tagC!.id });

  return {
    companyId,
    admin: await login(t.app, own.email, own.password),
    none,
    allTicket,
    allHistoric,
    allUserChat,
    peerId: peer.user.id,
    q1,
    q2,
    w1,
    w2,
    tagA: tagA!.id,
    tagB: tagB!.id,
    tickets: rows,
    labelOf,
    other: { admin: await login(t.app, other.email, other.password), ticketId: otherTicket.id, ticketUuid: otherTicket.uuid, tagC: tagC!.id },
  };
}

/** Moves a ticket (for the realtime tests). */
export const setTicket = (t: TestApp, id: number, set: Partial<typeof tickets.$inferInsert>) => t.db.update(tickets).set(set).where(eq(tickets.id, id));
