import http from 'node:http';
import { REPORT_COUNT_CAP, REPORT_SHEET_NAME, reportResponse, type ReportRow } from '@balcao/contracts';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { seedInsight, type InsightFixture } from '../../../test/insight-seed.js';
import { createAdminTestApp, createPlainUser, setupRoles, type Roles } from '../../../test/roles.js';
import { createContact, createQueue, createTicketRow, joinQueues, ticketRow } from '../../../test/tickets.js';
import { REPORT_EXPORT_HEADER } from './export.js';

let t: TestApp;
let roles: Roles;
let ana: LoggedIn;
let bruno: LoggedIn;
let reporter: LoggedIn;
let fx: InsightFixture;
beforeAll(async () => {
  t = await createAdminTestApp();
  roles = await setupRoles(t);
  ana = await createPlainUser(t, roles.companyId, { name: 'Ana', showDashboard: 'enabled' });
  bruno = await createPlainUser(t, roles.companyId, { name: 'Bruno' });
  reporter = await createPlainUser(t, roles.companyId, { name: 'Rita', showDashboard: 'enabled' });
  fx = await seedInsight(t.db, roles.companyId, ana.user, bruno.user);
  await joinQueues(t.db, roles.companyId, reporter.user.id, [fx.queueId]);
});
afterAll(() => t.close());

const get = (token: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
const MARCH = 'dateFrom=2026-03-01&dateTo=2026-03-31';
const report = async (token: string, query: string) => {
  const res = await get(token, `/ticketreport/reports?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return reportResponse.parse(res.json());
};
const idsOf = (rows: ReportRow[]) => rows.map((r) => r.id);
const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));

describe('GET /ticketreport/reports', () => {
  it("answers the month's tickets newest first with the report row of spec 2 §3", async () => {
    const { tickets, totalTickets } = await report(roles.admin.token, `${MARCH}&page=1&pageSize=10`);
    const { T1, T2, T3, T4, T5, T6, T7 } = fx.ids;
    expect(totalTickets.total).toBe(7);
    expect(idsOf(tickets)).toEqual([T7, T6, T5, T4, T3, T2, T1]);
    expect(tickets.find((r) => r.id === T1)).toMatchObject({
      whatsappName: 'Página Loja',
      contactName: 'Cliente T1',
      userName: 'Ana',
      status: 'closed',
      lastMessage: 'Última mensagem de T1',
      createdAt: '2026-03-10T12:00:00.000Z',
      closedAt: '2026-03-10T12:40:00.000Z',
      supportTime: '00:40:00',
      NPS: 10,
    });
    expect(tickets.find((r) => r.id === T4)).toMatchObject({ userName: null, closedAt: null, supportTime: null, NPS: null });
  });

  it('pages with the page size asked for', async () => {
    const { T5, T4 } = fx.ids;
    const page2 = await report(roles.admin.token, `${MARCH}&page=2&pageSize=2`);
    expect(idsOf(page2.tickets)).toEqual([T5, T4]);
    expect(page2.totalTickets.total).toBe(7);
  });

  it('applies each filter', async () => {
    const { T1, T2, T3, T4, T5, T6, T7 } = fx.ids;
    const other = await createQueue(t.db, roles.companyId, 'Outra');
    const cases: [string, number[]][] = [
      [`status=${enc(['open', 'pending'])}`, [T4, T3]],
      [`users=${enc([bruno.user.id])}`, [T5, T3]],
      ['onlyRated=true', [T5, T2, T1]],
      [`queueIds=${enc([0])}`, []],
      [`queueIds=${enc([other.id])}`, []],
      [`queueIds=${enc([0, fx.queueId])}`, [T7, T6, T5, T4, T3, T2, T1]],
      [`whatsappId=${enc([fx.whatsappId])}&status=${enc(['nps'])}`, [T6]],
      ['searchParam=cliente%20t2', [T2]],
      ['dateFrom=2026-03-12&dateTo=2026-03-12', [T4, T3]],
    ];
    for (const [query, expected] of cases) {
      const { tickets, totalTickets } = await report(roles.admin.token, query.startsWith('dateFrom') ? query : `${MARCH}&${query}`);
      expect(idsOf(tickets), query).toEqual(expected);
      expect(totalTickets.total, query).toBe(expected.length);
    }
    const t4 = await ticketRow(t.db, T4);
    expect(idsOf((await report(roles.admin.token, `contactId=${t4!.contactId}`)).tickets)).toEqual([T4]);
  });

  it('shows each profile only what its inbox shows', async () => {
    // Ana (showDashboard, no queue): her own tickets, April's included without dates.
    expect(idsOf((await report(ana.token, '')).tickets)).toEqual([fx.ids.T8, fx.ids.T6, fx.ids.T2, fx.ids.T1]);
    // Rita (showDashboard, the queue): its unassigned tickets, not the group (no allowGroup).
    expect(idsOf((await report(reporter.token, MARCH)).tickets)).toEqual([fx.ids.T4]);
    // Another company: nothing of ours.
    expect((await report(roles.otherAdmin.token, MARCH)).totalTickets.total).toBe(0);
  });

  it('answers 400 for garbage JSON lists, a reversed range and ids of another company; 403 without showDashboard', async () => {
    const theirQueue = await createQueue(t.db, roles.otherCompanyId, 'Deles');
    for (const q of [
      'status=open',
      `status=${enc(['opened'])}`,
      'users=[abc',
      `users=${enc(['x'])}`,
      'queueIds={}',
      'dateFrom=2026-03-31&dateTo=2026-03-01',
      'dateFrom=31/03/2026',
      'onlyRated=yes',
      `queueIds=${enc([theirQueue.id])}`,
      `users=${enc([roles.otherAdmin.user.id])}`,
      'pageSize=0',
    ]) {
      const res = await get(roles.admin.token, `/ticketreport/reports?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json(), q).toMatchObject({ error: 'ERR_VALIDATION' });
    }
    for (const url of [`/ticketreport/reports?${MARCH}`, `/ticketreport/export?${MARCH}`, '/ticketreport/reports?status=garbage']) {
      const res = await get(bruno.token, url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
  });

  it('answers the legacy page size 9999999 as a stream of every row, bounded', async () => {
    const res = await get(roles.admin.token, `/ticketreport/reports?${MARCH}&page=1&pageSize=9999999`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    const body = reportResponse.parse(res.json());
    expect(body.totalTickets.total).toBe(7);
    expect(body.tickets).toEqual((await report(roles.admin.token, `${MARCH}&pageSize=10`)).tickets);
  });
});

describe('GET /ticketreport/export', () => {
  it("writes relatorio-de-atendimentos.xlsx, sheet RelatorioDeAtendimentos, the spec's columns in order, with the report's filters", async () => {
    const res = await get(roles.admin.token, `/ticketreport/export?${MARCH}&onlyRated=true`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toBe('attachment; filename="relatorio-de-atendimentos.xlsx"');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet(REPORT_SHEET_NAME);
    expect(sheet).toBeDefined();
    const rows = sheet!.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1));
    expect(rows[0]).toEqual([
      'Conexão',
      'Contato',
      'Usuário',
      'Fila',
      'Status',
      'Última Mensagem',
      'Data/Hora de Abertura',
      'Data/Hora de Fechamento',
      'Tempo de Atendimento',
      'NPS',
    ]);
    expect(rows[0]).toEqual([...REPORT_EXPORT_HEADER]);
    expect(rows.slice(1).map((r) => r[1])).toEqual(['Cliente T5', 'Cliente T2', 'Cliente T1']);
    const t1 = rows[3]!;
    expect(t1[0]).toBe('Página Loja');
    expect(t1[2]).toBe('Ana');
    expect(t1[3]).toMatch(/^Vendas/);
    expect(t1[4]).toBe('Finalizado');
    expect(t1[5]).toBe('Última mensagem de T1');
    expect(t1[6]).toMatch(/^\d{2}\/03\/2026 \d{2}:00:00$/);
    expect(t1[7]).toMatch(/^\d{2}\/03\/2026 \d{2}:40:00$/);
    expect(t1[8]).toBe('00:40:00');
    expect(t1[9]).toBe(10);
  });

  it('escapes & < > " and backslashes, keeps tabs and line breaks, drops the control characters XML cannot carry', async () => {
    const contact = await createContact(t.db, roles.companyId, { name: 'Ana <&> "Souza"\u0001\u000b\ttab', number: '5511900000077' });
    await createTicketRow(t.db, {
      companyId: roles.companyId,
      contactId: contact.id,
      whatsappId: fx.whatsappId,
      status: 'closed',
      lastMessage: '<b>1 & 2</b>\u0002\nfim\uFFFF \\ barra\r\nlinha\rúltima',
      createdAt: new Date('2024-06-10T12:00:00Z'),
      closedAt: new Date('2024-06-11T13:02:03Z'),
    });
    const res = await get(roles.admin.token, '/ticketreport/export?dateFrom=2024-06-01&dateTo=2024-06-30');
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows = book.getWorksheet(REPORT_SHEET_NAME)!.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1));
    expect(rows).toHaveLength(2);
    const [conexao, contato, usuario, fila, status, ultima, , fechamento, tempo, nps] = rows[1]!;
    expect([conexao, contato, usuario, fila, status, ultima, tempo, nps]).toEqual(['Página Loja', 'Ana <&> "Souza"\ttab', undefined, undefined, 'Finalizado', '<b>1 & 2</b>\nfim \\ barra\nlinha\núltima', '25:02:03', undefined]);
    expect(fechamento).toMatch(/^1[01]\/06\/2024 \d{2}:02:03$/);
  });

  it("exports only the caller's visible tickets, and nothing of another company", async () => {
    const load = async (token: string) => {
      const res = await get(token, `/ticketreport/export?${MARCH}`);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      return book.getWorksheet(REPORT_SHEET_NAME)!.rowCount;
    };
    expect(await load(reporter.token)).toBe(2);
    expect(await load(roles.otherAdmin.token)).toBe(1);
  });
});

// Last in the file: these January 2025 tickets would swell the unfiltered cases above.
describe('a report over more tickets than the count cap', () => {
  const JANUARY = 'dateFrom=2025-01-01&dateTo=2025-01-31';
  const many = REPORT_COUNT_CAP + 30;
  beforeAll(async () => {
    const contact = await createContact(t.db, roles.companyId, { name: 'Cliente em massa', number: '5511900000001' });
    await t.db.execute(sql`INSERT INTO tickets (company_id, contact_id, whatsapp_id, status, created_at, updated_at, closed_at)
      SELECT ${roles.companyId}::int, ${contact.id}::int, ${fx.whatsappId}::int, 'closed', ts, ts, ts + interval '5 minutes'
      FROM (SELECT timestamptz '2025-01-10 12:00:00+00' + i * interval '1 second' AS ts FROM generate_series(1, ${many}) i) s`);
  });

  it('counts up to the cap, then one row past the page asked for, and exactly on the last page', async () => {
    const first = await report(roles.admin.token, `${JANUARY}&page=1&pageSize=10`);
    expect(first.totalTickets.total).toBe(REPORT_COUNT_CAP);
    const pastCap = REPORT_COUNT_CAP / 10 + 1;
    const beyond = await report(roles.admin.token, `${JANUARY}&page=${pastCap}&pageSize=10`);
    expect(beyond.tickets).toHaveLength(10);
    expect(beyond.totalTickets.total).toBe(REPORT_COUNT_CAP + 11);
    const last = await report(roles.admin.token, `${JANUARY}&page=${many / 10}&pageSize=10`);
    expect(last.tickets).toHaveLength(10);
    expect(last.totalTickets.total).toBe(many);
    expect((await report(roles.otherAdmin.token, `${JANUARY}&page=1&pageSize=10`)).totalTickets.total).toBe(0);
  });

  it('pages a contact search newest first, counted once under the cap and read as the other filters at it', async () => {
    const plain = await report(roles.admin.token, `${JANUARY}&page=2&pageSize=10`);
    const searched = await report(roles.admin.token, `${JANUARY}&searchParam=em%20massa&page=2&pageSize=10`);
    expect(searched.totalTickets.total).toBe(REPORT_COUNT_CAP);
    expect(idsOf(searched.tickets)).toEqual(idsOf(plain.tickets));
    const { T4, T3, T2 } = fx.ids;
    const narrow = await report(roles.admin.token, `${MARCH}&searchParam=cliente%20t&page=2&pageSize=3`);
    expect(narrow.totalTickets.total).toBe(7);
    expect(narrow.tickets.map((r) => [r.id, r.contactName])).toEqual([
      [T4, 'Cliente T4'],
      [T3, 'Cliente T3'],
      [T2, 'Cliente T2'],
    ]);
    expect((await report(roles.admin.token, `${MARCH}&searchParam=cliente%20t&page=4&pageSize=3`)).tickets).toEqual([]);
    expect((await report(roles.otherAdmin.token, `${JANUARY}&searchParam=em%20massa&page=1&pageSize=10`)).totalTickets.total).toBe(0);
  });

  it('a client that goes away mid-export ends the COPY and leaves no connection behind', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const copies = async () =>
      (await t.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'COPY (%' AND pid <> pg_backend_pid()`)).rows[0]!.n;
    await new Promise<void>((resolve, reject) => {
      const req = http.get(`${base}/ticketreport/export?${JANUARY}`, { headers: bearer(roles.admin.token) }, (res) => {
        expect(res.statusCode).toBe(200);
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
    });
    await expect.poll(copies, { timeout: 10_000 }).toBe(0);
    const again = await get(roles.admin.token, `/ticketreport/export?${JANUARY}`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(again.rawPayload as unknown as ArrayBuffer);
    expect(book.getWorksheet(REPORT_SHEET_NAME)!.rowCount).toBe(many + 1);
  });

  it('a search with a word most contacts hold finds the same tickets (the word leads no index scan)', async () => {
    await t.db.execute(sql`INSERT INTO contacts (company_id, channel, name, number, remote_jid)
      SELECT ${roles.companyId}::int, 'whatsapp', 'Fregues ' || i, '5531' || lpad(i::text, 8, '0'), '5531' || lpad(i::text, 8, '0') FROM generate_series(1, 10001) i`);
    const [target] = (await t.db.execute<{ id: number }>(sql`SELECT id FROM contacts WHERE company_id = ${roles.companyId} AND name = 'Fregues 4242'`)).rows;
    const other = await createContact(t.db, roles.companyId, { name: 'Outro 4242 Fregues 4242x' });
    const ticket = await createTicketRow(t.db, { companyId: roles.companyId, contactId: target!.id, whatsappId: fx.whatsappId, createdAt: new Date('2025-02-10T12:00:00Z') });
    const decoy = await createTicketRow(t.db, { companyId: roles.companyId, contactId: other.id, whatsappId: fx.whatsappId, createdAt: new Date('2025-02-11T12:00:00Z') });
    const FEBRUARY = 'dateFrom=2025-02-01&dateTo=2025-02-28';
    const found = async (term: string) => idsOf((await report(roles.admin.token, `${FEBRUARY}&searchParam=${encodeURIComponent(term)}`)).tickets);
    expect(await found('fregues 4242')).toEqual([decoy.id, ticket.id]);
    expect(await found('Fregues 4242x')).toEqual([decoy.id]);
    expect(await found('  Fregues   4242 ')).toEqual([]);
    expect(await found('Fregues')).toEqual([decoy.id, ticket.id]);
    expect(await found('553100004242')).toEqual([ticket.id]);
    expect((await report(roles.otherAdmin.token, `${FEBRUARY}&searchParam=Fregues%204242`)).totalTickets.total).toBe(0);
  });

  it('exports every row across many batches, newest first', async () => {
    const res = await get(roles.admin.token, `/ticketreport/export?${JANUARY}`);
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet(REPORT_SHEET_NAME)!;
    expect(sheet.rowCount).toBe(many + 1);
    // dd/MM/yyyy HH:mm:ss as a sortable yyyyMMdd HH:mm:ss.
    const opened = (n: number) => String(sheet.getRow(n).getCell(7).value).replace(/^(\d\d)\/(\d\d)\/(\d{4})/, '$3$2$1');
    expect(opened(2) > opened(3)).toBe(true);
    expect(opened(3) > opened(many + 1)).toBe(true);
    expect(sheet.getRow(many + 1).getCell(2).value).toBe('Cliente em massa');
  });
});
