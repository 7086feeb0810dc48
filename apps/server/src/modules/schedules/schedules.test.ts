import { scheduleSchema, type ListEventPayload, type Schedule, type SchedulePage } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, plans, queues, schedules } from '../../db/schema/index.js';
import { bearer, collect, createCompanyWithAdmin, login, nextEvent, sleep, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createConnection } from '../../../test/connections.js';
import { multipart } from '../../../test/multipart.js';
import { createAdminTestApp, listen, openSocket, setupRoles, type Roles } from '../../../test/roles.js';

let t: TestApp;
let roles: Roles;
let port: number;
let contactId: number;
let otherContactId: number;
const sockets: Socket[] = [];

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

beforeAll(async () => {
  t = await createAdminTestApp();
  roles = await setupRoles(t);
  port = await listen(t);
  const [mine] = await t.db.insert(contacts).values({ companyId: roles.companyId, channel: 'facebook', name: 'Maria Souza', number: '3000001', remoteJid: '3000001' }).returning();
  const [theirs] = await t.db.insert(contacts).values({ companyId: roles.otherCompanyId, channel: 'facebook', name: 'Outra', number: '3000002', remoteJid: '3000002' }).returning();
  contactId = mine!.id;
  otherContactId = theirs!.id;
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

const call = (who: LoggedIn, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(who.token), ...(payload ? { payload } : {}) });

const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();

describe('schedules API', () => {
  let created: Schedule;

  it('creates a schedule with the defaults of spec 2 §4 and tells the company, not other companies', async () => {
    const mine = await openSocket(port, roles.user);
    const theirs = await openSocket(port, roles.otherAdmin);
    sockets.push(mine, theirs);
    const leaked = collect(theirs, `company${roles.otherCompanyId}-schedule`);
    const heard = nextEvent<ListEventPayload<Schedule>>(mine, `company${roles.companyId}-schedule`);

    const sendAt = inAnHour();
    const res = await call(roles.user, 'POST', '/schedules', { body: 'Olá {{firstName}}, tudo bem?', contactId, sendAt });
    expect(res.statusCode).toBe(200);
    created = scheduleSchema.parse(res.json());
    expect(created).toMatchObject({
      companyId: roles.companyId,
      contactId,
      contact: { id: contactId, name: 'Maria Souza' },
      sendAt,
      sentAt: null,
      status: 'PENDENTE',
      userId: roles.user.user.id,
      openTicket: 'enabled',
      statusTicket: 'closed',
      intervalo: 1,
      valorIntervalo: 0,
      enviarQuantasVezes: 1,
      contadorEnvio: 0,
      tipoDias: 4,
      assinar: false,
      mediaPath: null,
    });
    expect(await heard).toEqual({ action: 'create', record: created });
    await sleep(100);
    expect(leaked).toHaveLength(0);
  });

  it("validates with the modal's messages", async () => {
    const short = await call(roles.admin, 'POST', '/schedules', { body: 'Oi', contactId, sendAt: inAnHour() });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'body', message: 'Mensagem muito curta' }] });
    const missing = await call(roles.admin, 'POST', '/schedules', { body: 'Mensagem longa' });
    expect(missing.statusCode).toBe(400);
    const paths = (missing.json() as { issues: { path: string }[] }).issues.map((i) => i.path).sort();
    expect(paths).toEqual(['contactId', 'sendAt']);
    const badRule = await call(roles.admin, 'POST', '/schedules', { body: 'Mensagem longa', contactId, sendAt: inAnHour(), tipoDias: 7, intervalo: 9 });
    expect(badRule.statusCode).toBe(400);
  });

  it('lists with search, contact and date range as { schedules, count, hasMore }', async () => {
    await call(roles.admin, 'POST', '/schedules', { body: 'Lembrete de pagamento', contactId, sendAt: '2030-05-10T12:00:00.000Z' });
    const all = (await call(roles.admin, 'GET', '/schedules')).json() as SchedulePage;
    expect(all.count).toBe(2);
    expect(all.hasMore).toBe(false);
    expect(all.schedules.map((s) => s.body)).toEqual(['Olá {{firstName}}, tudo bem?', 'Lembrete de pagamento']);
    const byBody = (await call(roles.admin, 'GET', '/schedules?searchParam=PAGAMENTO')).json() as SchedulePage;
    expect(byBody.schedules.map((s) => s.body)).toEqual(['Lembrete de pagamento']);
    const byName = (await call(roles.admin, 'GET', '/schedules?searchParam=souza')).json() as SchedulePage;
    expect(byName.count).toBe(2);
    const range = (await call(roles.admin, 'GET', '/schedules?dateFrom=2030-05-01T00:00:00Z&dateTo=2030-06-01T00:00:00Z')).json() as SchedulePage;
    expect(range.schedules.map((s) => s.body)).toEqual(['Lembrete de pagamento']);
    expect(((await call(roles.admin, 'GET', `/schedules?contactId=${contactId}`)).json() as SchedulePage).count).toBe(2);
    expect(((await call(roles.admin, 'GET', `/schedules?contactId=${otherContactId}`)).json() as SchedulePage).count).toBe(0);
    // Another company sees none of them.
    expect(((await call(roles.otherAdmin, 'GET', '/schedules')).json() as SchedulePage).count).toBe(0);
  });

  it('updates a schedule, re-arming it, and tells the company', async () => {
    const mine = await openSocket(port, roles.admin);
    sockets.push(mine);
    const heard = nextEvent<ListEventPayload<Schedule>>(mine, `company${roles.companyId}-schedule`);
    const sendAt = '2031-01-02T13:00:00.000Z';
    const res = await call(roles.admin, 'PUT', `/schedules/${created.id}`, { body: 'Texto novo da mensagem', sendAt, valorIntervalo: 2, intervalo: 2, enviarQuantasVezes: 3 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ body: 'Texto novo da mensagem', sendAt, status: 'PENDENTE', intervalo: 2, valorIntervalo: 2, enviarQuantasVezes: 3 });
    expect(await heard).toMatchObject({ action: 'update', record: { id: created.id, body: 'Texto novo da mensagem' } });
  });

  it('moves a send on a weekend or a national holiday to the business day before (5) or after (6)', async () => {
    // Christmas 2026 is a Friday: after it come Saturday and Sunday.
    const christmasNoon = '2026-12-25T15:00:00.000Z';
    const after = (await call(roles.admin, 'POST', '/schedules', { body: 'Feliz Natal!!', contactId, sendAt: christmasNoon, tipoDias: 6 })).json() as Schedule;
    expect(after.sendAt).toBe('2026-12-28T15:00:00.000Z');
    const before = (await call(roles.admin, 'POST', '/schedules', { body: 'Feliz Natal!!', contactId, sendAt: christmasNoon, tipoDias: 5 })).json() as Schedule;
    expect(before.sendAt).toBe('2026-12-24T15:00:00.000Z');
    const any = (await call(roles.admin, 'POST', '/schedules', { body: 'Feliz Natal!!', contactId, sendAt: christmasNoon, tipoDias: 4 })).json() as Schedule;
    expect(any.sendAt).toBe(christmasNoon);
    // A Saturday that is no holiday moves too.
    const saturday = (await call(roles.admin, 'POST', '/schedules', { body: 'Bom sábado!', contactId, sendAt: '2026-11-28T12:00:00.000Z', tipoDias: 5 })).json() as Schedule;
    expect(saturday.sendAt).toBe('2026-11-27T12:00:00.000Z');
    for (const s of [after, before, any, saturday]) expect((await call(roles.admin, 'DELETE', `/schedules/${s.id}`)).statusCode).toBe(200);
  });

  it('attaches only the accepted kinds of file, replaces and removes the attachment', async () => {
    const upload = (name: string, type: string, data: Buffer) => {
      const form = multipart({ typeArch: 'schedules' }, { field: 'file', name, type, data });
      return t.app.inject({ method: 'POST', url: `/schedules/${created.id}/media-upload`, headers: { ...bearer(roles.admin.token), ...form.headers }, payload: form.payload });
    };
    const ok = await upload('boleto.png', 'image/png', PNG);
    expect(ok.statusCode).toBe(200);
    const withMedia = ok.json() as Schedule;
    expect(withMedia.mediaName).toBe('boleto.png');
    expect(withMedia.mediaUrl).toContain(`/public/company${roles.companyId}/`);
    const file = await t.app.inject({ method: 'GET', url: new URL(withMedia.mediaUrl!).pathname });
    expect(file.statusCode).toBe(200);

    expect((await upload('notes.txt', 'text/plain', Buffer.from('hello'))).json()).toMatchObject({ error: 'ERR_INVALID_MEDIA_TYPE' });
    expect((await upload('setup.exe', 'application/octet-stream', Buffer.from('MZ....'))).statusCode).toBe(400);
    expect((await upload('fake.pdf', 'application/pdf', Buffer.from('MZ\x90\x00 program'))).statusCode).toBe(400);

    const replaced = (await upload('fatura.pdf', 'application/pdf', Buffer.from('%PDF-1.4 fake'))).json() as Schedule;
    expect(replaced.mediaName).toBe('fatura.pdf');
    // The replaced file is gone.
    expect((await t.app.inject({ method: 'GET', url: new URL(withMedia.mediaUrl!).pathname })).statusCode).toBe(404);

    const cleared = await call(roles.admin, 'DELETE', `/schedules/${created.id}/media-upload`);
    expect(cleared.json()).toMatchObject({ mediaPath: null, mediaName: null, mediaUrl: null });
  });

  it("keeps every id inside the caller's company", async () => {
    const theirs = roles.otherAdmin;
    for (const [method, url] of [
      ['GET', `/schedules/${created.id}`],
      ['PUT', `/schedules/${created.id}`],
      ['DELETE', `/schedules/${created.id}`],
      ['DELETE', `/schedules/${created.id}/media-upload`],
    ] as const) {
      const res = await call(theirs, method, url, method === 'PUT' ? { body: 'Invadido aqui' } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_SCHEDULE_FOUND' });
    }
    const form = multipart({}, { field: 'file', name: 'x.png', type: 'image/png', data: PNG });
    const upload = await t.app.inject({ method: 'POST', url: `/schedules/${created.id}/media-upload`, headers: { ...bearer(theirs.token), ...form.headers }, payload: form.payload });
    expect(upload.statusCode).toBe(404);
    expect(((await call(roles.admin, 'GET', `/schedules/${created.id}`)).json() as Schedule).body).toBe('Texto novo da mensagem');

    // Another company's contact, connection, user or queue cannot be named.
    const theirConnection = await createConnection(t.db, roles.otherCompanyId);
    const [theirQueue] = await t.db.insert(queues).values({ companyId: roles.otherCompanyId, name: 'Deles', color: '#111111' }).returning();
    const base = { body: 'Mensagem longa', contactId, sendAt: inAnHour() };
    expect((await call(roles.admin, 'POST', '/schedules', { ...base, contactId: otherContactId })).json()).toEqual({ error: 'ERR_NO_CONTACT_FOUND' });
    expect((await call(roles.admin, 'POST', '/schedules', { ...base, whatsappId: theirConnection.id })).json()).toEqual({ error: 'ERR_NO_WAPP_FOUND' });
    expect((await call(roles.admin, 'POST', '/schedules', { ...base, ticketUserId: theirs.user.id })).json()).toEqual({ error: 'ERR_NO_USER_FOUND' });
    expect((await call(roles.admin, 'POST', '/schedules', { ...base, queueId: theirQueue!.id })).json()).toEqual({ error: 'ERR_NO_QUEUE_FOUND' });
    expect((await call(roles.admin, 'PUT', `/schedules/${created.id}`, { contactId: otherContactId })).json()).toEqual({ error: 'ERR_NO_CONTACT_FOUND' });
  });

  it('deletes a schedule and tells the company', async () => {
    const mine = await openSocket(port, roles.user);
    sockets.push(mine);
    const heard = nextEvent<ListEventPayload<Schedule>>(mine, `company${roles.companyId}-schedule`);
    expect((await call(roles.user, 'DELETE', `/schedules/${created.id}`)).statusCode).toBe(200);
    expect(await heard).toEqual({ action: 'delete', id: created.id });
    expect((await call(roles.admin, 'GET', `/schedules/${created.id}`)).statusCode).toBe(404);
  });

  it('answers 403 to a company whose plan lacks useSchedules, and changes nothing', async () => {
    const [plan] = await t.db.insert(plans).values({ name: 'Sem agendamentos', users: 5, connections: 1, queues: 1, useSchedules: false }).returning();
    const c = await createCompanyWithAdmin(t.db, { planId: plan!.id });
    const admin = await login(t.app, c.email, c.password);
    const [contact] = await t.db.insert(contacts).values({ companyId: c.company.id, channel: 'facebook', name: 'Zé', number: '3000009', remoteJid: '3000009' }).returning();
    const post = await call(admin, 'POST', '/schedules', { body: 'Mensagem longa', contactId: contact!.id, sendAt: inAnHour() });
    expect(post.statusCode).toBe(403);
    expect(post.json()).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED' });
    expect(await t.db.select().from(schedules).where(eq(schedules.companyId, c.company.id))).toHaveLength(0);
    expect((await call(admin, 'GET', '/schedules')).statusCode).toBe(403);
    // Turned on, the same company may use them (and had none stored).
    await t.db.update(plans).set({ useSchedules: true }).where(eq(plans.id, plan!.id));
    expect(((await call(admin, 'GET', '/schedules')).json() as SchedulePage).count).toBe(0);
  });
});
