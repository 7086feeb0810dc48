import { asc, eq } from 'drizzle-orm';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companySettings, contacts, messages, queues, ticketLogs, tickets, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.js';
import type { DomainEvent } from '../../events/types.js';
import { createCompanyWithAdmin, createTestApp, type TestApp } from '../../../test/helpers.js';
import { createConnection, eventually } from '../../../test/connections.js';
import { FakeGraph, PNG } from '../../../test/fakes/graph-server.js';
import { metaEnv } from '../../../test/fakes/meta-webhook.js';
import { storeContactPicture } from '../contacts/picture.js';
import { processInbound, storeMessages } from './inbound.js';

let t: TestApp;
let graph: FakeGraph;

beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await createTestApp(metaEnv(graph.url));
});

afterAll(async () => {
  await t.close();
  await graph.close();
});

/** A customer's (or, `fromMe`, the page's) text message as the adapter decodes it. */
function text(number: string, wid: string, over: { name?: string; fromMe?: boolean } = {}) {
  return {
    kind: 'message' as const,
    wid,
    fromMe: over.fromMe ?? false,
    body: `body of ${wid}`,
    mediaType: 'chat' as const,
    at: new Date(),
    raw: { wid },
    chat: { number, name: over.name ?? `Cliente ${number}`, remoteJid: number, isGroup: false, pictureUrl: `${graph.origin}/pictures/${number}.jpg` },
  };
}

/** What the statements sent on the pool while `work` ran: prepared statements by name, others by text. */
async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const client = t.app.ctx.db.$client;
  const query = client.query.bind(client);
  const seen: string[] = [];
  client.query = ((config: unknown, ...rest: unknown[]) => {
    const c = config as { name?: string; text?: string } | string;
    seen.push(typeof c === 'string' ? c : (c.name ?? c.text ?? ''));
    return (query as (...args: unknown[]) => unknown)(config, ...rest);
  }) as typeof client.query;
  try {
    await work();
  } finally {
    client.query = query;
  }
  return seen;
}

/** Ids, uuids and times differ between two companies: each becomes its kind (null stays null), everything else is compared. */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (value instanceof Date) return 'time';
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, /^(id|uuid)$|Id$|At$/.test(key) ? (v === null ? null : typeof v) : comparable(v)]),
  );
}

const companyOf = (e: DomainEvent) => ('companyId' in e ? e.companyId : 'ticket' in e ? e.ticket.companyId : undefined);

/**
 * A company (numbers hidden by LGPD, a Page with one queue, a known customer with a live ticket) takes one lane
 * batch: two new customers' first messages (one of them twice, one from the page) around the known one's.
 * Answers its rows, its announcements and the statements the batch sent.
 */
async function firstContactBatch(webhooks: boolean) {
  const { company } = await createCompanyWithAdmin(t.db);
  const companyId = company.id;
  await t.db.update(companySettings).set({ lgpdHideNumber: 'enabled' }).where(eq(companySettings.companyId, companyId));
  const [queue] = await t.db.insert(queues).values({ companyId, name: 'Vendas', color: '#123456' }).returning();
  const conn = await createConnection(t.db, companyId, { name: 'Página' }, [queue!.id]);
  if (webhooks) await t.db.insert(webhookEndpoints).values({ companyId, url: 'http://127.0.0.1:9/hook', events: ['contact.created', 'message.created'], secret: 'sealed' });
  expect(await processInbound(t.app.ctx, conn, text('7300001', 'm_first_k1'))).toMatchObject({ outcome: 'stored' });
  // The connection behaviours (the queue's bot) and the picture downloads run in the background: each step starts from their end.
  await t.app.ctx.background.drain();

  const heard: DomainEvent[] = [];
  t.app.ctx.events.subscribe((e) => {
    if (companyOf(e) === companyId && ['contact.saved', 'ticket.updated', 'message.created'].includes(e.type)) heard.push(e);
  });
  const batch = [
    text('7300002', 'm_first_a1'),
    text('7300001', 'm_first_k2'),
    text('7300002', 'm_first_a2'),
    text('7300003', 'm_first_b1', { name: '', fromMe: true }),
    text('7300002', 'm_first_a1'),
  ];
  const statements = await statementsOf(() => storeMessages(t.app.ctx, batch.map((m) => ({ connection: conn, m })), (emit) => emit()));
  // What the batch announced itself (the behaviours' own events follow).
  const announced = [...heard];
  await t.app.ctx.background.drain();

  const contactRows = await t.db.select().from(contacts).where(eq(contacts.companyId, companyId)).orderBy(asc(contacts.id));
  const ticketRows = await t.db.select().from(tickets).where(eq(tickets.companyId, companyId)).orderBy(asc(tickets.id));
  const logRows = await t.db.select().from(ticketLogs).where(eq(ticketLogs.companyId, companyId)).orderBy(asc(ticketLogs.id));
  // Each customer's messages in id order (the new chats' statement runs before the known customers' one: ids follow each customer's order, not the batch's).
  const messageRows = await t.db.select().from(messages).where(eq(messages.companyId, companyId)).orderBy(asc(messages.contactId), asc(messages.ticketId), asc(messages.id));
  const numberOf = (contactId: number | null) => contactRows.find((c) => c.id === contactId)?.number ?? null;
  const ticketOf = (ticketId: number) => numberOf(ticketRows.find((r) => r.id === ticketId)!.contactId);
  return {
    companyId,
    queueId: queue!.id,
    statements,
    heard,
    announced,
    ticketRows,
    messageRows,
    rows: comparable({
      contacts: contactRows.map(({ pictureFetchedAt: _, ...c }) => c),
      tickets: ticketRows.map((r) => ({ ...r, contact: numberOf(r.contactId), updatedAt: null })),
      logs: logRows.map((l) => ({ ...l, ticket: ticketOf(l.ticketId) })),
      messages: messageRows.map((m) => ({ ...m, contact: numberOf(m.contactId), ticket: ticketOf(m.ticketId) })),
    }),
  };
}

describe("a new customer's first messages (issue 10, Performance: new10)", () => {
  it('are stored by one statement with the rows and announcements the transaction gives, and read no tags, custom fields or LGPD setting apart', async () => {
    // Endpoints wanting contact.created and message.created keep a company on the transaction (its facts are written in it).
    const viaTransaction = await firstContactBatch(true);
    const viaStatement = await firstContactBatch(false);

    expect(viaTransaction.statements).not.toContain('inbound_store_new_chats');
    expect(viaStatement.statements.filter((s) => s === 'inbound_store_new_chats')).toHaveLength(1);
    // Nothing the statement answered is read again: not the new contact's tags or custom fields, not the connection's
    // queues; no insert of its own (the connection behaviours' reads are theirs). The LGPD flag travels with the events (below).
    const apart = [
      'select "contact_tags"',
      'from "contact_custom_fields" where "contact_custom_fields"."contact_id" in',
      'select "queue_id" from "whatsapp_queues"',
      'insert into "contacts"',
      'insert into "tickets"',
      'present_stored_includes',
    ];
    for (const text of apart) {
      expect(viaStatement.statements.filter((s) => s.includes(text)), text).toEqual([]);
    }

    expect(viaStatement.rows).toEqual(viaTransaction.rows);
    expect(viaStatement.heard.map(comparable)).toEqual(viaTransaction.heard.map(comparable));

    // What both answered: the new customers' contacts, tickets (in the sole queue, showing their messages) and logs,
    // every message once in the batch's order, announced with the ticket as it left it, contacts announced masked-ready.
    const { ticketRows, messageRows, announced, queueId } = viaStatement;
    expect(messageRows.map((m) => m.wid)).toEqual(['m_first_k1', 'm_first_k2', 'm_first_a1', 'm_first_a2', 'm_first_b1']);
    const [, a, b] = ticketRows;
    expect(a).toMatchObject({ status: 'pending', queueId, unreadMessages: 2, lastMessage: 'body of m_first_a2', lastMessageFromMe: false });
    expect(a!.lastMessageAt).toEqual(messageRows[3]!.createdAt);
    expect(b).toMatchObject({ status: 'pending', queueId, unreadMessages: 0, lastMessage: 'body of m_first_b1', lastMessageFromMe: true });
    expect(announced.map((e) => e.type)).toEqual([
      'contact.saved',
      'ticket.updated',
      'message.created',
      'ticket.updated',
      'message.created',
      'ticket.updated',
      'message.created',
      'contact.saved',
      'ticket.updated',
      'message.created',
    ]);
    const created = announced.flatMap((e) => (e.type === 'contact.saved' ? [e] : []));
    expect(created.map((e) => [e.action, e.contact.number, e.contact.name, e.contact.tags, e.contact.extraInfo, e.hidesNumbers])).toEqual([
      ['create', '7300002', 'Cliente 7300002', [], [], true],
      ['create', '7300003', '7300003', [], [], true],
    ]);
    const unread = announced.flatMap((e) => (e.type === 'message.created' && e.ticket.id === a!.id ? [[e.ticket.unreadMessages, e.ticket.lastMessage]] : []));
    expect(unread).toEqual([
      [1, 'body of m_first_a1'],
      [2, 'body of m_first_a2'],
    ]);

    // The company whose endpoints want them got its three customers' contact.created deliveries from the transaction.
    const deliveries = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.companyId, viaTransaction.companyId));
    expect(deliveries.filter((d) => d.event === 'contact.created')).toHaveLength(3);
  });

  it('two lanes racing on one new customer make one contact and one ticket with both messages, announced created once', async () => {
    const { company } = await createCompanyWithAdmin(t.db);
    const conn = await createConnection(t.db, company.id);
    const creates: number[] = [];
    t.app.ctx.events.subscribe((e) => {
      if (e.type === 'contact.saved' && e.companyId === company.id && e.action === 'create') creates.push(e.contact.id);
    });
    const lane = (wid: string) => storeMessages(t.app.ctx, [{ connection: conn, m: text('7300011', wid) }], (emit) => emit());
    await Promise.all([lane('m_race_1'), lane('m_race_2')]);

    const contactRows = await t.db.select().from(contacts).where(eq(contacts.companyId, company.id));
    const ticketRows = await t.db.select().from(tickets).where(eq(tickets.companyId, company.id));
    const messageRows = await t.db.select().from(messages).where(eq(messages.companyId, company.id));
    expect(contactRows).toHaveLength(1);
    expect(ticketRows).toHaveLength(1);
    expect(ticketRows[0]!.unreadMessages).toBe(2);
    expect(messageRows.map((m) => m.wid).sort()).toEqual(['m_race_1', 'm_race_2']);
    expect(messageRows.every((m) => m.ticketId === ticketRows[0]!.id && m.contactId === contactRows[0]!.id)).toBe(true);
    expect(creates).toEqual([contactRows[0]!.id]);
  });

  it("asks the channel for a new customer's profile once per batch, and creates the contact from it", async () => {
    const { company } = await createCompanyWithAdmin(t.db);
    const conn = await createConnection(t.db, company.id);
    let lookups = 0;
    const lookupProfile = async () => {
      lookups += 1;
      return { name: 'Perfil Novo', pictureUrl: null };
    };
    const batch = ['m_profile_1', 'm_profile_2'].map((wid) => ({ connection: conn, m: { ...text('7300051', wid), lookupProfile } }));
    await storeMessages(t.app.ctx, batch, (emit) => emit());
    expect(lookups).toBe(1);
    const rows = await t.db.select().from(contacts).where(eq(contacts.companyId, company.id));
    expect(rows.map((c) => c.name)).toEqual(['Perfil Novo']);
    expect(await t.db.select({ wid: messages.wid }).from(messages).where(eq(messages.companyId, company.id)).orderBy(asc(messages.id))).toEqual([
      { wid: 'm_profile_1' },
      { wid: 'm_profile_2' },
    ]);
  });

  it("looks the batch's new customers up side by side, not one after the other", async () => {
    const { company } = await createCompanyWithAdmin(t.db);
    const conn = await createConnection(t.db, company.id);
    let startB!: () => void;
    const bStarted = new Promise<string>((resolve) => (startB = () => resolve('together')));
    const order: string[] = [];
    // A's lookup answers once B's has started (or, one after the other, after a second).
    const lookupA = async () => {
      order.push(await Promise.race([bStarted, new Promise<string>((resolve) => setTimeout(() => resolve('one after the other'), 1000))]));
      return { name: 'Ana' };
    };
    const lookupB = async () => {
      startB();
      return { name: 'Bia' };
    };
    await storeMessages(
      t.app.ctx,
      [
        { connection: conn, m: { ...text('7300061', 'm_side_a'), lookupProfile: lookupA } },
        { connection: conn, m: { ...text('7300062', 'm_side_b'), lookupProfile: lookupB } },
      ],
      (emit) => emit(),
    );
    expect(order).toEqual(['together']);
    const rows = await t.db.select().from(contacts).where(eq(contacts.companyId, company.id)).orderBy(asc(contacts.id));
    expect(rows.map((c) => c.name)).toEqual(['Ana', 'Bia']);
  });

  it("a new customer's next messages, stored while the first one's picture is still downloading, ask for no second download", async () => {
    const { company } = await createCompanyWithAdmin(t.db);
    const conn = await createConnection(t.db, company.id);
    // The channel's CDN, answering only once released.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const hits: string[] = [];
    const cdn = createServer((req, res) => {
      hits.push(req.url ?? '');
      void released.then(() => res.writeHead(404).end());
    });
    await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
    try {
      const pictured = (wid: string) => ({ ...text('7300031', wid), chat: { ...text('7300031', wid).chat, pictureUrl: `http://127.0.0.1:${(cdn.address() as AddressInfo).port}/p.jpg` } });
      for (const wid of ['m_pic_1', 'm_pic_2', 'm_pic_3']) await storeMessages(t.app.ctx, [{ connection: conn, m: pictured(wid) }], (emit) => emit());
      await eventually(async () => hits.length > 0);
      release();
      await t.app.ctx.background.drain();
    } finally {
      await new Promise((resolve) => cdn.close(resolve));
    }
    expect(hits).toEqual(['/p.jpg']);
    const [row] = await t.db.select().from(contacts).where(eq(contacts.companyId, company.id));
    expect(row!.pictureFetchedAt).not.toBeNull();
  });

  it("a contact's picture behind a redirect is followed, stored as our own copy and announced", async () => {
    const { company } = await createCompanyWithAdmin(t.db);
    const conn = await createConnection(t.db, company.id);
    const [contact] = await t.db.insert(contacts).values({ companyId: company.id, channel: 'facebook', name: 'Foto', number: '7300041', remoteJid: '7300041' }).returning();
    const hits: string[] = [];
    const cdn = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/moved') res.writeHead(302, { location: '/pp/final.png' }).end();
      else res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length }).end(PNG);
    });
    await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
    const updates: string[] = [];
    t.app.ctx.events.subscribe((e) => {
      if (e.type === 'contact.saved' && e.contact.id === contact!.id) updates.push(e.action);
    });
    const url = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}/moved`;
    try {
      await storeContactPicture(t.app.ctx, { companyId: company.id, contactId: contact!.id, whatsappId: conn.id, url });
    } finally {
      await new Promise((resolve) => cdn.close(resolve));
    }
    expect(hits).toEqual(['/moved', '/pp/final.png']);
    const [after] = await t.db.select().from(contacts).where(eq(contacts.id, contact!.id));
    expect(after!.profilePicUrl).toMatch(new RegExp(`/public/company${company.id}/contacts/contact-[0-9a-f]{32}\\.png$`));
    expect(after!.pictureSourceUrl).toBe(url);
    expect(updates).toEqual(['update']);
  });

  it("a new contact's picture whose download fails costs one UPDATE and no read of the contact", async () => {
    const { company } = await createCompanyWithAdmin(t.db);
    const conn = await createConnection(t.db, company.id);
    const [contact] = await t.db.insert(contacts).values({ companyId: company.id, channel: 'facebook', name: 'Nova', number: '7300021', remoteJid: '7300021' }).returning();
    const statements = await statementsOf(() =>
      storeContactPicture(t.app.ctx, { companyId: company.id, contactId: contact!.id, whatsappId: conn.id, url: 'http://127.0.0.1:9/gone.jpg' }),
    );
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^update "contacts" set "picture_fetched_at"/);
    const [after] = await t.db.select().from(contacts).where(eq(contacts.id, contact!.id));
    expect(after!.pictureFetchedAt).not.toBeNull();
    expect(after!.pictureSourceUrl).toBeNull();
  });
});
