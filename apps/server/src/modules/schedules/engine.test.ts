import type { Schedule } from '@balcao/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, messages, queues, schedules, tickets, userQueues, whatsapps } from '../../db/schema/index.js';
import { startJobs, stopJobs } from '../../jobs/boss.js';
import { registerScheduleJobs } from '../../jobs/schedules.js';
import { bearer, createCompanyWithAdmin, createTestApp, login, sleep, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createConnection, eventually } from '../../../test/connections.js';
import { fixture } from '../../../test/fixtures.js';
import { FakeGraph } from '../../../test/fakes/graph-server.js';
import { metaEnv } from '../../../test/fakes/meta-webhook.js';
import { multipart } from '../../../test/multipart.js';
import { failInterruptedBatches } from '../conversations/outbound-deliver-batch.js';
import { sweepOutbox } from '../conversations/outbound.js';
import { runScheduleJobs, sweepSchedules } from './engine.js';

let t: TestApp;
let graph: FakeGraph;
let admin: LoggedIn;
let companyId: number;
let contactId: number;
let queueId: number;
let psid = 4_000_000;

beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await createTestApp(metaEnv(graph.url));
  const c = await createCompanyWithAdmin(t.db, { userFields: { name: 'Ana Lima' } });
  companyId = c.company.id;
  admin = await login(t.app, c.email, c.password);
  await createConnection(t.db, companyId, { name: 'Página Loja' });
  contactId = await newContact('Maria Souza');
  const [queue] = await t.db.insert(queues).values({ companyId, name: 'Cobrança', color: '#123456' }).returning();
  queueId = queue!.id;
  await t.db.insert(userQueues).values({ companyId, userId: admin.user.id, queueId });
});

afterAll(async () => {
  await t.close();
  await graph.close();
});

async function newContact(name: string, fields: Partial<typeof contacts.$inferInsert> = {}): Promise<number> {
  psid += 1;
  const [row] = await t.db
    .insert(contacts)
    .values({ companyId, channel: 'facebook', name, number: String(psid), remoteJid: String(psid), ...fields })
    .returning();
  return row!.id;
}

/** A schedule made through the API, due a second ago unless told otherwise. */
async function schedule(fields: Record<string, unknown>): Promise<Schedule> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/schedules',
    headers: bearer(admin.token),
    payload: { contactId, sendAt: new Date(Date.now() - 1000).toISOString(), ...fields },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Schedule;
}

const reload = async (id: number) => (await t.db.select().from(schedules).where(eq(schedules.id, id)))[0]!;
const sendsOf = (text: string) => graph.sends().filter((s) => JSON.stringify(s.body).includes(text));
/** Makes the armed next occurrence due now (its planned time stays, so the recurrence goes on from it). */
const makeDue = (id: number) => t.db.update(schedules).set({ sendAt: sql`now() - interval '1 second'` }).where(eq(schedules.id, id));
const delivered = (text: string, n = 1) => eventually(async () => sendsOf(text).length >= n);

describe('schedule engine', () => {
  it('sends a due schedule through the outbox with the variables and signature, then marks it ENVIADA', async () => {
    const s = await schedule({ body: 'Olá {{firstName}}, aqui é da {{connection}}.', assinar: true });
    await sweepSchedules(t.app.ctx);
    await delivered('aqui é da');
    const [sent] = sendsOf('aqui é da');
    // Messenger has no bold: the channel adapter writes the signature plain.
    expect(sent!.body).toMatchObject({ message: { text: 'Ana Lima:\nOlá Maria, aqui é da Página Loja.' } });
    const row = await reload(s.id);
    expect(row).toMatchObject({ status: 'ENVIADA', contadorEnvio: 1, reason: null });
    expect(row.sentAt).toBeInstanceOf(Date);
    // statusTicket closed (the default): the ticket opened to carry it is closed, the message is in its history.
    const [ticket] = await t.db.select().from(tickets).where(eq(tickets.contactId, contactId));
    expect(ticket).toMatchObject({ status: 'closed' });
    const [message] = await t.db.select().from(messages).where(eq(messages.ticketId, ticket!.id));
    expect(message).toMatchObject({ fromMe: true, body: '*Ana Lima:*\nOlá Maria, aqui é da Página Loja.' });
    // Sent once: another sweep sends nothing.
    await sweepSchedules(t.app.ctx);
    await sleep(200);
    expect(sendsOf('aqui é da')).toHaveLength(1);
  });

  it('sends the attachment with the message as its caption', async () => {
    const s = await schedule({ body: 'Segue a sua fatura em anexo' });
    const form = multipart({}, { field: 'file', name: 'fatura.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4 fatura') });
    const up = await t.app.inject({ method: 'POST', url: `/schedules/${s.id}/media-upload`, headers: { ...bearer(admin.token), ...form.headers }, payload: form.payload });
    expect(up.statusCode).toBe(200);
    await sweepSchedules(t.app.ctx);
    await delivered('Segue a sua fatura');
    const file = graph.sends().find((r) => JSON.stringify(r.body).includes('.pdf'));
    expect(file?.body).toMatchObject({ message: { attachment: { type: 'file' } } });
    const [m] = await t.db.select().from(messages).where(eq(messages.body, 'Segue a sua fatura em anexo'));
    expect(m).toMatchObject({ mediaType: 'application' });
    expect(m!.mediaUrl).toMatch(/fatura\.pdf$/);
  });

  it('opens the ticket for the chosen user and queue when statusTicket is open', async () => {
    const contact = await newContact('João Pereira');
    await schedule({ body: 'Seu pedido saiu para entrega', contactId: contact, statusTicket: 'open', ticketUserId: admin.user.id, queueId });
    await sweepSchedules(t.app.ctx);
    await delivered('Seu pedido saiu');
    const [ticket] = await t.db.select().from(tickets).where(eq(tickets.contactId, contact));
    expect(ticket).toMatchObject({ status: 'open', userId: admin.user.id, queueId });
  });

  it('repeats valorIntervalo units apart and sends enviarQuantasVezes times in all', async () => {
    const s = await schedule({ body: 'Lembrete recorrente', intervalo: 4, valorIntervalo: 5, enviarQuantasVezes: 3 });
    const first = new Date(s.sendAt).getTime();
    await sweepSchedules(t.app.ctx);
    let row = await reload(s.id);
    expect(row).toMatchObject({ status: 'PENDENTE', contadorEnvio: 1 });
    expect(row.sendAt.getTime()).toBe(first + 5 * 60_000);

    await makeDue(s.id);
    await sweepSchedules(t.app.ctx);
    row = await reload(s.id);
    expect(row).toMatchObject({ status: 'PENDENTE', contadorEnvio: 2 });
    expect(row.sendAt.getTime()).toBe(first + 10 * 60_000);

    await makeDue(s.id);
    await sweepSchedules(t.app.ctx);
    row = await reload(s.id);
    expect(row).toMatchObject({ status: 'ENVIADA', contadorEnvio: 3 });
    await makeDue(s.id);
    await sweepSchedules(t.app.ctx);
    await delivered('Lembrete recorrente', 3);
    await sleep(200);
    expect(sendsOf('Lembrete recorrente')).toHaveLength(3);
  });

  it('moves a recurring send that falls on a national holiday to the business day after (6) or before (5)', async () => {
    // Thursday 24 December 2026, 10:00 in São Paulo; Christmas is a Friday, then a weekend.
    const eve = '2026-12-24T13:00:00.000Z';
    const daily = { sendAt: eve, intervalo: 1, valorIntervalo: 1, enviarQuantasVezes: 5 };
    const after = await schedule({ ...daily, body: 'Recorrente depois do feriado', tipoDias: 6 });
    const before = await schedule({ ...daily, body: 'Recorrente antes do feriado', tipoDias: 5 });
    const any = await schedule({ ...daily, body: 'Recorrente em qualquer dia', tipoDias: 4 });
    for (const s of [after, before, any]) await makeDue(s.id);
    await sweepSchedules(t.app.ctx);
    expect((await reload(after.id)).sendAt.toISOString()).toBe('2026-12-28T13:00:00.000Z');
    expect((await reload(before.id)).sendAt.toISOString()).toBe('2026-12-24T13:00:00.000Z');
    expect((await reload(any.id)).sendAt.toISOString()).toBe('2026-12-25T13:00:00.000Z');
    // The next one counts from the planned day (the 25th), not from the moved one: Saturday the 26th, also the 28th.
    await makeDue(after.id);
    await sweepSchedules(t.app.ctx);
    expect(await reload(after.id)).toMatchObject({ contadorEnvio: 2 });
    expect((await reload(after.id)).sendAt.toISOString()).toBe('2026-12-28T13:00:00.000Z');
  });

  it('repeats monthly on the same day, or the last day of a shorter month', async () => {
    const s = await schedule({ body: 'Mensalidade vence hoje', sendAt: '2027-01-31T12:00:00.000Z', intervalo: 3, valorIntervalo: 1, enviarQuantasVezes: 3 });
    await makeDue(s.id);
    await sweepSchedules(t.app.ctx);
    expect((await reload(s.id)).sendAt.toISOString()).toBe('2027-02-28T12:00:00.000Z');
  });

  it('skips occurrences missed while the server was down instead of sending them in a burst', async () => {
    const s = await schedule({ body: 'Diário atrasado', sendAt: new Date(Date.now() - 3 * 86_400_000 - 60_000).toISOString(), valorIntervalo: 1, enviarQuantasVezes: 10 });
    await sweepSchedules(t.app.ctx);
    await sweepSchedules(t.app.ctx);
    const row = await reload(s.id);
    expect(row).toMatchObject({ status: 'PENDENTE', contadorEnvio: 1 });
    expect(row.sendAt.getTime()).toBeGreaterThan(Date.now());
    await delivered('Diário atrasado');
    expect(sendsOf('Diário atrasado')).toHaveLength(1);
  });

  it('sets ERRO with the reason when the message cannot go out, and sends nothing', async () => {
    const blocked = await newContact('Bloqueado', { active: false });
    const s = await schedule({ body: 'Para contato bloqueado', contactId: blocked });
    await sweepSchedules(t.app.ctx);
    expect(await reload(s.id)).toMatchObject({ status: 'ERRO', reason: 'ERR_CONTACT_BLOCKED' });
    expect(sendsOf('contato bloqueado')).toHaveLength(0);
  });

  it('sets ERRO with the channel’s reason when the channel refuses the message', async () => {
    graph.sendError = { status: 400, body: fixture('meta/graph-responses/send-api-error-outside-24h.json') };
    try {
      const s = await schedule({ body: 'Fora da janela de 24 horas' });
      await sweepSchedules(t.app.ctx);
      await eventually(async () => {
        const [m] = await t.db.select().from(messages).where(eq(messages.body, 'Fora da janela de 24 horas'));
        return m?.sendStatus === 'failed';
      });
      await sweepSchedules(t.app.ctx);
      const row = await reload(s.id);
      expect(row.status).toBe('ERRO');
      expect(row.reason).toContain('2018278');
    } finally {
      graph.sendError = undefined;
    }
  });

  it('does not send again a send interrupted by a crash: the lapsed claim becomes ERRO', async () => {
    const s = await schedule({ body: 'Interrompido no meio', sendAt: new Date(Date.now() + 3600_000).toISOString() });
    // What a process that died right after claiming leaves behind.
    await t.db
      .update(schedules)
      .set({ status: 'AGENDADA', sendAt: sql`now() - interval '2 minutes'`, claimedUntil: sql`now() - interval '1 second'` })
      .where(eq(schedules.id, s.id));
    await sweepSchedules(t.app.ctx);
    const row = await reload(s.id);
    expect(row.status).toBe('ERRO');
    expect(row.reason).toMatch(/interrupted/);
    expect(sendsOf('Interrompido no meio')).toHaveLength(0);
  });

  it('does not send again a schedule whose outbox batch a crash interrupted: the message turns failed and the schedule ERRO', async () => {
    const customer = await newContact('Cliente Interrompido');
    const s = await schedule({ body: 'Lote interrompido', contactId: customer, sendAt: new Date(Date.now() + 3600_000).toISOString() });
    // What a process that died after storing the message and claiming it for its batch send leaves behind.
    const [connection] = await t.db.select().from(whatsapps).where(eq(whatsapps.companyId, companyId));
    const [ticket] = await t.db.insert(tickets).values({ companyId, contactId: customer, whatsappId: connection!.id, channel: 'facebook', status: 'closed' }).returning();
    const [message] = await t.db
      .insert(messages)
      .values({ companyId, ticketId: ticket!.id, whatsappId: ticket!.whatsappId, body: 'Lote interrompido', fromMe: true, sendStatus: 'pending', sendAttempts: 1, batchClaimedAt: new Date(Date.now() - 600_000) })
      .returning();
    await t.db
      .update(schedules)
      .set({ status: 'ENVIADA', pendingMessageId: message!.id, contadorEnvio: 1 })
      .where(eq(schedules.id, s.id));
    // The restarted process's sweeps, twice over.
    for (let i = 0; i < 2; i++) {
      await failInterruptedBatches(t.app.ctx);
      await sweepOutbox(t.app.ctx);
      await sweepSchedules(t.app.ctx);
    }
    await sleep(200);
    expect(sendsOf('Lote interrompido')).toHaveLength(0);
    expect((await t.db.select().from(messages).where(eq(messages.id, message!.id)))[0]).toMatchObject({ sendStatus: 'failed' });
    const row = await reload(s.id);
    expect(row.status).toBe('ERRO');
    expect(row.reason).toMatch(/interrupted/);
  });

  it('sends each due schedule once when two server processes sweep and run jobs at the same time', async () => {
    const second = await createTestApp(metaEnv(graph.url), {}, t.pool.options.connectionString);
    try {
      const made: Schedule[] = [];
      for (let i = 0; i < 30; i++) made.push(await schedule({ body: `Corrida número ${i}!` }));
      const ids = made.map((s) => s.id);
      await Promise.all([sweepSchedules(t.app.ctx), sweepSchedules(second.app.ctx), runScheduleJobs(second.app.ctx, ids), runScheduleJobs(t.app.ctx, ids)]);
      await delivered('Corrida número', 30);
      await sleep(300);
      const bodies = sendsOf('Corrida número').map((s) => JSON.stringify(s.body));
      expect(bodies).toHaveLength(30);
      expect(new Set(bodies).size).toBe(30);
      const rows = await t.db.select().from(schedules).where(and(eq(schedules.companyId, companyId), sql`${schedules.body} LIKE 'Corrida%'`));
      expect(rows.every((r) => r.status === 'ENVIADA' && r.contadorEnvio === 1)).toBe(true);
    } finally {
      await second.close();
    }
  });

  it('sends a due batch together: a blocked contact turns only its own schedule ERRO, and two schedules of one contact both go out', async () => {
    const blocked = await newContact('Contato Bloqueado', { active: false });
    const twice = await newContact('Rita Duas Vezes');
    const others = await Promise.all([1, 2, 3].map((i) => newContact(`Lote ${i}`)));
    const bad = await schedule({ body: 'Lote: bloqueado', contactId: blocked });
    const first = await schedule({ body: 'Lote: primeira da Rita', contactId: twice });
    const second = await schedule({ body: 'Lote: segunda da Rita', contactId: twice });
    const rest = await Promise.all(others.map((c, i) => schedule({ body: `Lote: cliente ${i}`, contactId: c })));
    await sweepSchedules(t.app.ctx);
    await delivered('Lote:', 5);
    await sleep(300);
    expect(sendsOf('Lote:')).toHaveLength(5);
    expect(sendsOf('bloqueado')).toHaveLength(0);
    expect(await reload(bad.id)).toMatchObject({ status: 'ERRO', reason: 'ERR_CONTACT_BLOCKED' });
    for (const s of [first, second, ...rest]) expect(await reload(s.id)).toMatchObject({ status: 'ENVIADA', contadorEnvio: 1 });
    // Rita's two messages share the ticket the batch opened (closed after, as it carried only them).
    const ritas = await t.db.select().from(tickets).where(eq(tickets.contactId, twice));
    expect(ritas).toHaveLength(1);
    expect(ritas[0]).toMatchObject({ status: 'closed', lastMessageFromMe: true });
    const bodies = (await t.db.select({ body: messages.body }).from(messages).where(eq(messages.ticketId, ritas[0]!.id))).map((m) => m.body).sort();
    expect(bodies).toEqual(['Lote: primeira da Rita', 'Lote: segunda da Rita']);
    expect(ritas[0]!.lastMessage).toMatch(/^Lote: (primeira|segunda) da Rita$/);
  });

  it('queues one job per occurrence: saving the same time again adds none, a new time adds one', async () => {
    const connectionString = t.pool.options.connectionString!;
    const boss = await startJobs(connectionString, t.app.log);
    try {
      t.app.ctx.boss = boss;
      await registerScheduleJobs(boss, t.app.ctx);
      const sendAt = new Date(Date.now() + 3600_000).toISOString();
      const s = await schedule({ body: 'Um job só por horário', sendAt });
      const put = (body: object) => t.app.inject({ method: 'PUT', url: `/schedules/${s.id}`, headers: bearer(admin.token), payload: body });
      expect((await put({ sendAt })).statusCode).toBe(200);
      expect((await put({ sendAt, body: 'Um job só por horário!' })).statusCode).toBe(200);
      const jobs = async () =>
        (await t.pool.query<{ singleton_key: string }>("SELECT singleton_key FROM pgboss.job WHERE name = 'schedule-send' AND data->>'id' = $1", [String(s.id)])).rows;
      expect(await jobs()).toHaveLength(1);
      await put({ sendAt: new Date(Date.now() + 7200_000).toISOString() });
      expect(await jobs()).toHaveLength(2);
    } finally {
      t.app.ctx.boss = undefined;
      await stopJobs(boss);
    }
  });

  it('sends a schedule that fell due while the server was down once at boot, and never again after a restart', async () => {
    const s = await schedule({ body: 'Venceu com o servidor parado', sendAt: new Date(Date.now() - 5 * 60_000).toISOString() });
    const connectionString = t.pool.options.connectionString!;
    const first = await startJobs(connectionString, t.app.log);
    try {
      t.app.ctx.boss = first;
      await registerScheduleJobs(first, t.app.ctx);
      await delivered('Venceu com o servidor parado');
    } finally {
      t.app.ctx.boss = undefined;
      await stopJobs(first);
    }
    await eventually(async () => (await reload(s.id)).status === 'ENVIADA');

    // The restarted server (another process on the same database) boots, sweeps and runs its jobs.
    const restarted = await createTestApp(metaEnv(graph.url), {}, connectionString);
    const boss = await startJobs(connectionString, restarted.app.log);
    try {
      restarted.app.ctx.boss = boss;
      await registerScheduleJobs(boss, restarted.app.ctx);
      // A schedule made now, due in a moment, goes out through its pg-boss job at its time, not before.
      const soon = new Date(Date.now() + 1500);
      const res = await restarted.app.inject({
        method: 'POST',
        url: '/schedules',
        headers: bearer(admin.token),
        payload: { contactId, body: 'Pontual ao segundo', sendAt: soon.toISOString() },
      });
      expect(res.statusCode).toBe(200);
      await delivered('Pontual ao segundo');
      const [m] = await t.db.select().from(messages).where(eq(messages.body, 'Pontual ao segundo'));
      expect(m!.createdAt.getTime()).toBeGreaterThanOrEqual(soon.getTime());
      await sleep(1000);
      expect(sendsOf('Venceu com o servidor parado')).toHaveLength(1);
      expect(sendsOf('Pontual ao segundo')).toHaveLength(1);
    } finally {
      restarted.app.ctx.boss = undefined;
      await stopJobs(boss);
      await restarted.close();
    }
  });
});
