import { TICKET_COUNT_CAP, TICKETS_PER_PAGE, listTicketsQuery, ticketListResponse, ticketSchema, type TicketListResponse } from '@balcao/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, createCompanyWithAdmin, login, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createConnection } from '../../../test/connections.js';
import { createAdminTestApp } from '../../../test/roles.js';
import { createContact, createTicketRow } from '../../../test/tickets.js';
import { contacts, tags, ticketTags, tickets } from '../../db/schema/index.js';
import { ticketListWhere, type MessageSearch, type TagFilter } from './list-query.js';
import { LABELS, seedInbox, type InboxFixture, type Label } from '../../../test/inbox-seed.js';
import { loadViewer } from './visibility.js';

let t: TestApp;
let f: InboxFixture;
beforeAll(async () => {
  t = await createAdminTestApp();
  f = await seedInbox(t);
});
afterAll(async () => {
  await t.close();
});

type Who = 'admin' | 'none' | 'allTicket' | 'allHistoric' | 'allUserChat';
const WHO: Who[] = ['admin', 'none', 'allTicket', 'allHistoric', 'allUserChat'];

const get = (session: LoggedIn, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(session.token) });

function query(params: Record<string, unknown>): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) qs.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  return qs.toString();
}

async function list(who: Who | LoggedIn, params: Record<string, unknown> = {}): Promise<TicketListResponse> {
  const res = await get(typeof who === 'string' ? f[who] : who, `/tickets?${query(params)}`);
  expect(res.statusCode, res.body).toBe(200);
  return ticketListResponse.parse(res.json());
}

/** The labels a list answers (foreign tickets show as their id, so a leak fails the comparison). */
async function labels(who: Who, params: Record<string, unknown> = {}): Promise<string[]> {
  const { tickets } = await list(who, params);
  return tickets.map((tk) => f.labelOf.get(tk.id) ?? `foreign:${tk.id}`).sort();
}
const set = (...l: Label[]) => [...l].sort();

describe('GET /tickets: the visibility matrix (users × views, no filters)', () => {
  // Every plain user belongs to Q1 only; see test/inbox-seed.ts for the tickets.
  const expected: Record<Who, Record<string, Label[]>> = {
    admin: {
      open: [],
      openShowAll: ['T1', 'T2', 'T3', 'T11', 'T12'],
      pending: ['T4', 'T5', 'T6'],
      closed: ['T7', 'T8', 'T9'],
      group: ['T10'],
      search: [...LABELS],
    },
    none: { open: ['T1', 'T11'], openShowAll: ['T1', 'T11'], pending: ['T4'], closed: ['T7'], group: [], search: ['T1', 'T7', 'T11'] },
    allTicket: {
      open: [],
      openShowAll: [],
      pending: ['T4', 'T6'],
      closed: ['T7', 'T8'],
      group: [],
      search: ['T1', 'T2', 'T4', 'T6', 'T7', 'T8', 'T12'],
    },
    allHistoric: { open: [], openShowAll: [], pending: ['T4'], closed: ['T7', 'T8'], group: [], search: ['T1', 'T2', 'T4', 'T7', 'T8'] },
    allUserChat: {
      open: [],
      openShowAll: ['T1', 'T2'],
      pending: ['T4'],
      closed: ['T7', 'T8'],
      group: ['T10'],
      search: ['T1', 'T2', 'T4', 'T7', 'T8', 'T10'],
    },
  };
  const views: [string, Record<string, unknown>][] = [
    ['open', { status: 'open' }],
    ['openShowAll', { status: 'open', showAll: 'true' }],
    ['pending', { status: 'pending' }],
    ['closed', { status: 'closed' }],
    ['group', { status: 'group' }],
    ['search', {}],
  ];
  for (const who of WHO) {
    for (const [view, params] of views) {
      it(`${who} · ${view}`, async () => {
        expect(await labels(who, params)).toEqual(set(...expected[who][view]!));
      });
    }
  }

  it('status=search is the search view; the pending list ignores show-all for users without allUserChat', async () => {
    expect(await labels('admin', { status: 'search' })).toEqual(set(...LABELS));
    expect(await labels('none', { status: 'pending', showAll: 'true' })).toEqual(['T4']);
  });

  it('GET /tickets/u/{uuid} opens exactly the tickets some view lists (canSeeTicket = the list rule)', async () => {
    for (const who of WHO) {
      const openable: Label[] = [];
      for (const label of LABELS) {
        const res = await get(f[who], `/tickets/u/${f.tickets[label].uuid}`);
        expect([200, 403], res.body).toContain(res.statusCode);
        if (res.statusCode === 200) openable.push(label);
        else expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
      }
      const everyView = new Set<string>();
      for (const params of [{ status: 'open', showAll: 'true' }, { status: 'pending', showAll: 'true' }, { status: 'group', showAll: 'true' }, {}]) {
        for (const l of await labels(who, params)) everyView.add(l);
      }
      // One rule: a ticket opens exactly when some view lists it.
      expect(openable.sort(), who).toEqual([...everyView].sort());
    }
  });
});

describe('GET /tickets: filters narrow, never widen', () => {
  it('queueIds: a queue the user lacks adds nothing', async () => {
    expect(await labels('none', { status: 'open', queueIds: [f.q2] })).toEqual(['T11']);
    expect(await labels('none', { status: 'open', queueIds: [f.q1] })).toEqual(['T1']);
    expect(await labels('none', { status: 'pending', queueIds: [f.q2] })).toEqual([]);
    expect(await labels('allTicket', { status: 'pending', queueIds: [f.q2] })).toEqual(['T6']);
    expect(await labels('allTicket', { status: 'pending', queueIds: [f.q1] })).toEqual(set('T4', 'T6'));
    expect(await labels('admin', { status: 'pending', queueIds: [f.q2] })).toEqual(set('T5', 'T6'));
    expect(await labels('admin', { status: 'pending', queueIds: [] })).toEqual(set('T4', 'T5', 'T6'));
  });

  it('users (owners)', async () => {
    expect(await labels('admin', { users: [f.peerId] })).toEqual(set('T2', 'T3', 'T8', 'T9', 'T12'));
    expect(await labels('allHistoric', { users: [f.peerId] })).toEqual(set('T2', 'T8'));
    expect(await labels('none', { users: [f.peerId] })).toEqual([]);
  });

  it('whatsapps: admins only, ignored for others', async () => {
    expect(await labels('admin', { whatsapps: [f.w2] })).toEqual(set('T2', 'T8'));
    expect(await labels('none', { whatsapps: [f.w2] })).toEqual(set('T1', 'T7', 'T11'));
    expect(await labels('allHistoric', { whatsapps: [f.w2] })).toEqual(set('T1', 'T2', 'T4', 'T7', 'T8'));
  });

  it('tags: any of the tags; another company’s tag matches nothing', async () => {
    expect(await labels('admin', { tags: [f.tagA] })).toEqual(set('T1', 'T4'));
    expect(await labels('admin', { tags: [f.tagA, f.tagB] })).toEqual(set('T1', 'T2', 'T4'));
    expect(await labels('none', { tags: [f.tagA] })).toEqual(['T1']);
    expect(await labels('allTicket', { status: 'pending', tags: [f.tagA] })).toEqual(['T4']);
    expect(await labels('admin', { tags: [f.other.tagC] })).toEqual([]);
  });

  it('withUnreadMessages', async () => {
    expect(await labels('admin', { withUnreadMessages: 'true' })).toEqual(set('T3', 'T4'));
    expect(await labels('none', { withUnreadMessages: 'true' })).toEqual([]);
    expect(await labels('allHistoric', { status: 'pending', withUnreadMessages: 'true' })).toEqual(['T4']);
    expect(await labels('admin', { withUnreadMessages: 'false' })).toEqual(set(...LABELS));
  });

  it('searchParam: contact name and number', async () => {
    expect(await labels('admin', { searchParam: 'zebra' })).toEqual(set('T3', 'T8'));
    expect(await labels('allHistoric', { searchParam: 'ZEBRA' })).toEqual(['T8']);
    expect(await labels('none', { searchParam: 'zebra' })).toEqual([]);
    expect(await labels('none', { searchParam: '99990001' })).toEqual(['T1']);
    // LIKE wildcards are literal.
    expect(await labels('admin', { searchParam: '%' })).toEqual([]);
  });

  it('searchOnMessages: message bodies by full-text search', async () => {
    expect(await labels('admin', { searchParam: 'parafuso' })).toEqual([]);
    expect(await labels('admin', { searchParam: 'parafuso', searchOnMessages: 'true' })).toEqual(set('T2', 'T7', 'T9'));
    expect(await labels('admin', { searchParam: 'parafuso especial', searchOnMessages: 'true' })).toEqual(['T2']);
    expect(await labels('allHistoric', { searchParam: 'parafuso', searchOnMessages: 'true' })).toEqual(set('T2', 'T7'));
    expect(await labels('none', { searchParam: 'parafuso', searchOnMessages: 'true' })).toEqual(['T7']);
    // Contacts still match with searchOnMessages.
    expect(await labels('admin', { searchParam: 'zebra', searchOnMessages: 'true' })).toEqual(set('T3', 'T8'));
  });

  it('statusFilter inside the view, date and updatedAt', async () => {
    expect(await labels('admin', { statusFilter: ['pending', 'closed'] })).toEqual(set('T4', 'T5', 'T6', 'T7', 'T8', 'T9'));
    expect(await labels('admin', { status: 'open', showAll: 'true', statusFilter: ['closed'] })).toEqual([]);
    expect(await labels('admin', { date: '2025-01-15' })).toEqual(['T1']);
    expect(await labels('admin', { updatedAt: '2000-01-01' })).toEqual([]);
    expect(await labels('admin', { date: '' })).toEqual(set(...LABELS));
  });

  it('malformed filters are a 400, never a 500', async () => {
    for (const qs of [
      'queueIds=abc',
      'queueIds=[1.5]',
      'tags={"a":1}',
      'users=["x"]',
      'whatsapps=[1,',
      'statusFilter=["bogus"]',
      'statusFilter=open',
      'status=everything',
      'sortTickets=UP',
      'pageNumber=0',
      'date=15/01/2025',
      'showAll=yes',
      // Beyond PostgreSQL's integer.
      'queueIds=[99999999999]',
    ]) {
      const res = await get(f.admin, `/tickets?${qs}`);
      expect(res.statusCode, qs).toBe(400);
      expect(res.json().error, qs).toBe('ERR_VALIDATION');
    }
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/tickets' })).statusCode).toBe(401);
  });
});

describe('message search: both ways of writing it select the same tickets', () => {
  it('matchesFirst = ticketsFirst for every user and term', async () => {
    for (const session of [f.admin, f.none, f.allTicket, f.allHistoric, f.allUserChat]) {
      const viewer = await loadViewer(t.db, session.user);
      // Upper case, words in another order, punctuation: ticketsFirst's body prefilter must never drop a match.
      for (const searchParam of ['parafuso', 'zebra', 'parafuso especial', 'nothing-matches', 'PARAFUSO', 'chegou  Especial', 'dourado!', 'o parafuso-especial']) {
        const q = listTicketsQuery.parse({ searchParam, searchOnMessages: 'true' });
        const ids = async (way: MessageSearch) =>
          (await t.db.select({ id: tickets.id }).from(tickets).where(ticketListWhere(viewer, q, way))).map((r) => r.id).sort();
        expect(await ids('ticketsFirst'), `${session.user.email} ${searchParam}`).toEqual(await ids('matchesFirst'));
      }
    }
    // And the list answers the same through either (the fixture's terms are rare: matchesFirst).
    expect(await labels('admin', { searchParam: 'parafuso', searchOnMessages: 'true' })).toEqual(set('T2', 'T7', 'T9'));
  });
});

describe('tag filter: both ways of writing it select the same tickets', () => {
  it('tagsFirst = ticketsFirst for every user, tab and tag set (another company’s tag: none)', async () => {
    for (const session of [f.admin, f.none, f.allTicket, f.allHistoric, f.allUserChat]) {
      const viewer = await loadViewer(t.db, session.user);
      for (const tagIds of [[f.tagA], [f.tagA, f.tagB], [f.other.tagC]]) {
        for (const status of [undefined, 'open', 'pending', 'closed'] as const) {
          const q = listTicketsQuery.parse({ tags: JSON.stringify(tagIds), ...(status ? { status } : {}) });
          const ids = async (way: TagFilter) =>
            (await t.db.select({ id: tickets.id }).from(tickets).where(ticketListWhere(viewer, q, undefined, 'all', way))).map((r) => r.id).sort();
          const where = `${session.user.email} ${status} ${tagIds.join(',')}`;
          expect(await ids('tagsFirst'), where).toEqual(await ids('ticketsFirst'));
          if (tagIds[0] === f.other.tagC) expect(await ids('tagsFirst'), where).toEqual([]);
        }
      }
    }
  });
});

describe('GET /tickets: shape, cross-tenant', () => {
  it('answers full tickets: contact with extra info and tags, queue, user, ticket tags, connection', async () => {
    const { tickets, count, hasMore } = await list('admin', { tags: [f.tagA] });
    expect(count).toBe(2);
    expect(hasMore).toBe(false);
    const t1 = tickets.find((tk) => tk.id === f.tickets.T1.id)!;
    expect(ticketSchema.parse(t1)).toMatchObject({
      uuid: f.tickets.T1.uuid,
      status: 'open',
      queue: { id: f.q1 },
      user: { id: f.none.user.id, name: f.none.user.name },
      whatsapp: { id: f.w1, name: 'W1' },
      tags: [{ id: f.tagA, name: 'Tag A', color: '#aa0000' }],
      contact: { number: '5511999990001', extraInfo: [{ name: 'valor', value: '10.50' }], tags: [{ id: f.tagB, name: 'Tag B' }] },
    });
    // The same shape as the single-ticket read.
    expect((await get(f.admin, `/tickets/u/${f.tickets.T1.uuid}`)).json()).toEqual(t1);
    expect((await get(f.admin, `/tickets/${f.tickets.T1.id}`)).json()).toEqual(t1);
  });

  it('never lists another company’s tickets', async () => {
    for (const params of [{}, { searchParam: 'zebra' }, { searchParam: 'parafuso', searchOnMessages: 'true' }, { withUnreadMessages: 'true' }]) {
      expect((await labels('admin', params)).filter((l) => l.startsWith('foreign'))).toEqual([]);
    }
    const theirs = await list(f.other.admin, { searchParam: 'parafuso', searchOnMessages: 'true' });
    expect(theirs.tickets.map((tk) => tk.id)).toEqual([f.other.ticketId]);
  });

  it('GET /tickets/u/{uuid} and /tickets/{id}: 404 for another company, unknown or malformed; 403 when not visible', async () => {
    for (const url of [
      `/tickets/u/${f.other.ticketUuid}`,
      `/tickets/${f.other.ticketId}`,
      '/tickets/u/00000000-0000-4000-8000-000000000000',
      '/tickets/u/not-a-uuid',
      "/tickets/u/1'--",
    ]) {
      const res = await get(f.admin, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
    }
    expect((await get(f.admin, '/tickets/abc')).statusCode).toBe(400);
    expect((await get(f.admin, '/tickets/99999999999')).statusCode).toBe(400);
    const hidden = await get(f.none, `/tickets/${f.tickets.T3.id}`);
    expect(hidden.statusCode).toBe(403);
    expect(hidden.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await get(f.other.admin, `/tickets/u/${f.tickets.T1.uuid}`)).statusCode).toBe(404);
  });
});

describe('GET /tickets: pages and order', () => {
  let session: LoggedIn;
  const ids: number[] = [];
  beforeAll(async () => {
    const own = await createCompanyWithAdmin(t.db);
    const w = await createConnection(t.db, own.company.id);
    const base = Date.parse('2026-03-01T08:00:00Z');
    for (let i = 0; i < TICKETS_PER_PAGE + 5; i++) {
      const contact = await createContact(t.db, own.company.id);
      const row = await createTicketRow(t.db, { companyId: own.company.id, contactId: contact.id, whatsappId: w.id, updatedAt: new Date(base + i * 1000) });
      ids.push(row.id);
    }
    session = await login(t.app, own.email, own.password);
  });

  it('40 per page, hasMore, then the rest; newest first by default', async () => {
    const first = await list(session, { status: 'pending' });
    expect(first.tickets).toHaveLength(TICKETS_PER_PAGE);
    expect(first).toMatchObject({ count: 45, hasMore: true });
    const second = await list(session, { status: 'pending', pageNumber: '2' });
    expect(second.tickets).toHaveLength(5);
    expect(second.hasMore).toBe(false);
    const all = [...first.tickets, ...second.tickets].map((tk) => tk.id);
    expect(all).toEqual([...ids].reverse());
    expect((await list(session, { status: 'pending', pageNumber: '3' })).tickets).toEqual([]);
  });

  it("merges a tab's unassigned tickets and one's own in one order across pages", async () => {
    const own = await createCompanyWithAdmin(t.db);
    const w = await createConnection(t.db, own.company.id);
    const me = await login(t.app, own.email, own.password);
    const base = Date.parse('2026-04-01T08:00:00Z');
    const open: number[] = [];
    // Interleaved in time: every third ticket is the admin's own, the rest are unassigned.
    for (let i = 0; i < TICKETS_PER_PAGE + 10; i++) {
      const contact = await createContact(t.db, own.company.id);
      const userId = i % 3 === 0 ? me.user.id : null;
      const row = await createTicketRow(t.db, { companyId: own.company.id, contactId: contact.id, whatsappId: w.id, status: 'open', userId, updatedAt: new Date(base + i * 1000) });
      open.push(row.id);
    }
    const first = await list(me, { status: 'open' });
    const second = await list(me, { status: 'open', pageNumber: '2' });
    expect(first).toMatchObject({ count: TICKETS_PER_PAGE + 10, hasMore: true });
    expect([...first.tickets, ...second.tickets].map((tk) => tk.id)).toEqual([...open].reverse());
    const asc = await list(me, { status: 'open', sortTickets: 'ASC', pageNumber: '2' });
    expect(asc.tickets.map((tk) => tk.id)).toEqual(open.slice(TICKETS_PER_PAGE));
  });

  it('a tag filter counts each matching ticket once past the first page, however many of the tags it carries', async () => {
    const companyId = session.user.companyId;
    const [a, b] = await t.db.insert(tags).values([{ companyId, name: 'Count A', color: '#111111' }, { companyId, name: 'Count B', color: '#222222' }]).returning();
    // A on the first 42 tickets, B on the last 15: 12 carry both, 45 carry one or both.
    await t.db.insert(ticketTags).values([
      ...ids.slice(0, 42).map((ticketId) => ({ ticketId, tagId: a!.id })),
      ...ids.slice(30).map((ticketId) => ({ ticketId, tagId: b!.id })),
    ]);
    expect(await list(session, { status: 'pending', tags: [a!.id, b!.id] })).toMatchObject({ count: 45, hasMore: true });
    expect(await list(session, { status: 'pending', tags: [a!.id] })).toMatchObject({ count: 42, hasMore: true });
    expect(await list(session, { status: 'closed', tags: [a!.id] })).toMatchObject({ count: 0, hasMore: false });
    // Another company's tag selects nothing here, and this company's tags nothing for the other company.
    expect(await list(session, { status: 'pending', tags: [f.tagA] })).toMatchObject({ count: 0, hasMore: false });
    expect(await list(f.admin, { tags: [a!.id, b!.id] })).toMatchObject({ count: 0, hasMore: false });
  });

  it('past the count cap: a tag filter and a contact search count the cap while more pages follow, the rest exactly at the end', async () => {
    const own = await createCompanyWithAdmin(t.db);
    const w = await createConnection(t.db, own.company.id);
    const me = await login(t.app, own.email, own.password);
    const total = TICKET_COUNT_CAP + 10;
    const base = Date.parse('2026-05-01T08:00:00Z');
    const people = await t.db
      .insert(contacts)
      .values(Array.from({ length: total }, (_, i) => ({ companyId: own.company.id, channel: 'whatsapp' as const, name: `Capped Person ${i}`, number: `5599${String(i).padStart(9, '0')}` })))
      .returning({ id: contacts.id });
    const rows = await t.db
      .insert(tickets)
      .values(people.map((p, i) => ({ companyId: own.company.id, contactId: p.id, whatsappId: w.id, channel: 'whatsapp' as const, status: 'pending' as const, updatedAt: new Date(base + i * 1000) })))
      .returning({ id: tickets.id });
    const [tag] = await t.db.insert(tags).values({ companyId: own.company.id, name: 'Capped', color: '#333333' }).returning();
    await t.db.insert(ticketTags).values(rows.map((r) => ({ ticketId: r.id, tagId: tag!.id })));
    const newestFirst = rows.map((r) => r.id).reverse();
    const lastPage = Math.ceil(total / TICKETS_PER_PAGE);
    for (const filter of [{ tags: [tag!.id] }, { searchParam: 'capped person' }]) {
      const first = await list(me, { status: 'pending', ...filter });
      expect(first).toMatchObject({ count: TICKET_COUNT_CAP, hasMore: true });
      expect(first.tickets.map((tk) => tk.id)).toEqual(newestFirst.slice(0, TICKETS_PER_PAGE));
      const last = await list(me, { status: 'pending', pageNumber: String(lastPage), ...filter });
      expect(last).toMatchObject({ count: total, hasMore: false });
      expect(last.tickets.map((tk) => tk.id)).toEqual(newestFirst.slice((lastPage - 1) * TICKETS_PER_PAGE));
      expect(await list(me, { status: 'pending', pageNumber: String(lastPage + 1), ...filter })).toMatchObject({ tickets: [], count: TICKET_COUNT_CAP, hasMore: false });
    }
  });

  it('sortTickets ASC / DESC', async () => {
    expect((await list(session, { status: 'pending', sortTickets: 'ASC' })).tickets.map((tk) => tk.id)).toEqual(ids.slice(0, TICKETS_PER_PAGE));
    expect((await list(session, { status: 'pending', sortTickets: 'DESC' })).tickets[0]!.id).toBe(ids.at(-1));
  });

  it('a constant number of queries per page, whatever its size (the count only when more pages follow)', async () => {
    const spy = vi.spyOn(t.pool, 'query');
    await list(session, { status: 'pending' });
    const full = spy.mock.calls.length;
    spy.mockClear();
    await list(session, { status: 'pending', pageNumber: '2' });
    const last = spy.mock.calls.length;
    spy.mockRestore();
    expect(last).toBe(full - 1);
    expect(full).toBeLessThanOrEqual(7);
  });
});
