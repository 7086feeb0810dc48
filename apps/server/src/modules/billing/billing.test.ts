import { INVOICE_PAID, addMonths, localIsoDate, type AuditLogPage, type Invoice, type InvoicesPage, type PaymentEventPayload, type SubscriptionResponse } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, invoices, plans } from '../../db/schema/index.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, collect, createCompanyWithAdmin, createTestApp, login, nextEvent, sleep, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createPlainUser, listen, openSocket } from '../../../test/roles.js';
import { EFI_CLIENT_ID, EFI_CLIENT_SECRET, FakeEfi } from '../../../test/fakes/efi-server.js';
import { localDatePlusDays } from '../auth/service.js';
import { runInvoiceJob } from './invoices.js';

const PIX_ENV = { PIX_KEY: 'pix@balcao.test', PIX_MERCHANT_NAME: 'Balcao Plataforma', PIX_MERCHANT_CITY: 'Sao Paulo' };
const WEBHOOK_SECRET = 'webhook-secret-0123456789';
const today = () => localIsoDate(new Date());

/** EMV TLV: two-digit id, two-digit length, value. */
function tlv(payload: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (let i = 0; i < payload.length; ) {
    const id = payload.slice(i, i + 2);
    const len = Number(payload.slice(i + 2, i + 4));
    fields.set(id, payload.slice(i + 4, i + 4 + len));
    i += 4 + len;
  }
  return fields;
}

/** CRC16-CCITT (polynomial 0x1021, initial 0xFFFF), as the BR Code's field 63 carries it. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let b = 0; b < 8; b++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

async function companyWithPlan(t: TestApp, opts: { dueDate: string; amount?: string; recurrence?: string }) {
  const [plan] = await t.db.insert(plans).values({ name: `Plano ${Math.random()}`, users: 4, connections: 2, queues: 3, amount: opts.amount ?? '79.90' }).returning();
  const c = await createCompanyWithAdmin(t.db, { dueDate: opts.dueDate, planId: plan!.id });
  if (opts.recurrence) await t.db.update(companies).set({ recurrence: opts.recurrence }).where(eq(companies.id, c.company.id));
  return { ...c, plan: plan!, session: await login(t.app, c.email, c.password) };
}

const listInvoices = async (t: TestApp, session: LoggedIn, query = '') => {
  const res = await t.app.inject({ method: 'GET', url: `/invoices${query}`, headers: bearer(session.token) });
  expect(res.statusCode).toBe(200);
  return res.json() as InvoicesPage;
};

const dueDateOf = async (t: TestApp, companyId: number) => (await t.db.select().from(companies).where(eq(companies.id, companyId)))[0]?.dueDate;

describe('invoices and the static PIX BR Code (no provider configured)', () => {
  let t: TestApp;
  let superUser: LoggedIn;
  beforeAll(async () => {
    t = await createTestApp({ ...PIX_ENV, LOGIN_MAX_PER_IP: '10000', LOGIN_MAX_PER_EMAIL: '10000' });
    superUser = await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD);
  });
  afterAll(() => t.close());

  it('the invoice job creates one invoice per company and period, from its plan, however often it runs', async () => {
    const due = await companyWithPlan(t, { dueDate: localDatePlusDays(3) });
    const later = await companyWithPlan(t, { dueDate: '2999-06-30' });
    await Promise.all([runInvoiceJob(t.app.ctx), runInvoiceJob(t.app.ctx)]);
    await runInvoiceJob(t.app.ctx);

    const page = await listInvoices(t, due.session);
    expect(page.count).toBe(1);
    expect(page.invoices[0]).toMatchObject({ detail: due.plan.name, users: 4, connections: 2, value: 79.9, dueDate: localDatePlusDays(3), status: 'Aberto' });
    expect((await listInvoices(t, later.session)).count).toBe(0);
  });

  it('a company created by the super user has its first invoice at once', async () => {
    const [plan] = await t.db.insert(plans).values({ name: 'Plano criado', users: 3, connections: 3, queues: 3, amount: '49.00' }).returning();
    const res = await t.app.inject({
      method: 'POST',
      url: '/companies',
      headers: bearer(superUser.token),
      payload: { name: 'Empresa Faturada', email: 'faturada@example.com', planId: plan!.id, password: 'tangerine-harbour-91', recurrence: 'ANUAL' },
    });
    expect(res.statusCode).toBe(200);
    const admin = await login(t.app, 'faturada@example.com', 'tangerine-harbour-91');
    const page = await listInvoices(t, admin);
    expect(page.invoices).toEqual([expect.objectContaining({ detail: 'Plano criado', value: 49, dueDate: addMonths(today(), 12) })]);
  });

  it('prices the checkout on the server (3 users and 3 connections = 49; +11 a user, +20 a connection), ignoring a sent price', async () => {
    const c = await companyWithPlan(t, { dueDate: today() });
    await runInvoiceJob(t.app.ctx);
    const [invoice] = (await listInvoices(t, c.session)).invoices;
    const pay = (payload: object) => t.app.inject({ method: 'POST', url: '/subscription', headers: bearer(c.session.token), payload: { invoiceId: invoice!.id, ...payload } });

    const minimum = await pay({ users: 3, connections: 3, price: 1 });
    expect(minimum.statusCode).toBe(200);
    expect((minimum.json() as SubscriptionResponse).valor.original).toBe('49.00');

    const bigger = await pay({ plan: JSON.stringify({ users: 5, connections: 4, price: 0.5, queues: 3 }), price: '0.50' });
    expect((bigger.json() as SubscriptionResponse).valor.original).toBe('91.00');
    expect((await listInvoices(t, c.session)).invoices[0]).toMatchObject({ users: 5, connections: 4, value: 91 });

    for (const below of [{ users: 2, connections: 3 }, { users: 3, connections: 2 }]) {
      const res = await pay(below);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
  });

  it('answers a BR Code that decodes to the platform key, the amount, merchant, txid, with a valid CRC16', async () => {
    const c = await companyWithPlan(t, { dueDate: today() });
    await runInvoiceJob(t.app.ctx);
    const [invoice] = (await listInvoices(t, c.session)).invoices;
    const res = await t.app.inject({ method: 'POST', url: '/subscription', headers: bearer(c.session.token), payload: { invoiceId: invoice!.id, users: 4, connections: 3 } });
    expect(res.statusCode).toBe(200);
    const body = res.json() as SubscriptionResponse;
    expect(body.provider).toBe('static');
    const code = body.qrcode.qrcode;

    const fields = tlv(code);
    expect(fields.get('00')).toBe('01');
    const account = tlv(fields.get('26')!);
    expect(account.get('00')).toBe('br.gov.bcb.pix');
    expect(account.get('01')).toBe('pix@balcao.test');
    expect(fields.get('53')).toBe('986');
    expect(fields.get('54')).toBe('60.00');
    expect(fields.get('58')).toBe('BR');
    expect(fields.get('59')).toBe('BALCAO PLATAFORMA');
    expect(fields.get('60')).toBe('SAO PAULO');
    expect(tlv(fields.get('62')!).get('05')).toBe(body.txid);
    expect(body.txid).toMatch(/^[A-Za-z0-9]{1,25}$/);
    expect(code.slice(-8, -4)).toBe('6304');
    expect(fields.get('63')).toBe(crc16(code.slice(0, -4)));
  });

  it('the super user confirms a static payment by hand, once; nobody else may', async () => {
    const c = await companyWithPlan(t, { dueDate: '2999-01-31' });
    await t.app.inject({ method: 'PUT', url: `/companies/${c.company.id}`, headers: bearer(superUser.token), payload: { dueDate: '2999-01-31' } });
    const [invoice] = (await listInvoices(t, c.session)).invoices;
    expect(invoice).toBeDefined();
    const confirm = (session: LoggedIn) => t.app.inject({ method: 'POST', url: `/invoices/${invoice!.id}/confirm`, headers: bearer(session.token) });

    const listed = await t.app.inject({ method: 'GET', url: `/companies/${c.company.id}/invoices`, headers: bearer(superUser.token) });
    expect((listed.json() as InvoicesPage).invoices.map((i) => i.id)).toEqual([invoice!.id]);
    expect((await t.app.inject({ method: 'GET', url: `/companies/${c.company.id}/invoices`, headers: bearer(c.session.token) })).statusCode).toBe(403);
    expect((await confirm(c.session)).statusCode).toBe(403);
    expect((await confirm(superUser)).statusCode).toBe(200);
    expect(await dueDateOf(t, c.company.id)).toBe('2999-02-28');
    const again = await confirm(superUser);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('ERR_INVOICE_ALREADY_PAID');
    expect(await dueDateOf(t, c.company.id)).toBe('2999-02-28');
    expect((await listInvoices(t, c.session)).invoices[0]!.status).toBe(INVOICE_PAID);

    // The audit log holds the payment once, by the super user, and the due date it moved.
    const audit = await t.app.inject({ method: 'GET', url: `/audit-log?companyId=${c.company.id}`, headers: bearer(superUser.token) });
    const entries = (audit.json() as AuditLogPage).entries;
    const payments = entries.filter((e) => e.entity === 'payment');
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ userId: superUser.user.id, entityId: String(invoice!.id) });
    const renewal = entries.find((e) => e.entity === 'company' && e.changes.dueDate);
    expect(renewal?.changes.dueDate).toEqual({ before: '2999-01-31', after: '2999-02-28' });
  });

  it('keeps invoices per company: other companies neither see nor pay them; plain users get 403', async () => {
    const mine = await companyWithPlan(t, { dueDate: today() });
    const theirs = await companyWithPlan(t, { dueDate: today() });
    await runInvoiceJob(t.app.ctx);
    const [invoice] = (await listInvoices(t, mine.session)).invoices;
    const seen = await listInvoices(t, theirs.session);
    expect(seen.invoices.map((i: Invoice) => i.id)).not.toContain(invoice!.id);
    expect(seen.invoices.every((i) => i.companyId === theirs.company.id)).toBe(true);

    const foreign = await t.app.inject({ method: 'POST', url: '/subscription', headers: bearer(theirs.session.token), payload: { invoiceId: invoice!.id, users: 3, connections: 3 } });
    expect(foreign.statusCode).toBe(404);

    const plain = await createPlainUser(t, mine.company.id);
    expect((await t.app.inject({ method: 'GET', url: '/invoices', headers: bearer(plain.token) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/subscription', headers: bearer(plain.token), payload: { invoiceId: invoice!.id, users: 3, connections: 3 } })).statusCode).toBe(403);
  });

  it('an expired company gets 402 ERR_SUBSCRIPTION_EXPIRED everywhere but its session, invoices and checkout; company 1 never expires', async () => {
    const c = await companyWithPlan(t, { dueDate: '2020-03-15' });
    const get = (url: string, session = c.session) => t.app.inject({ method: 'GET', url, headers: bearer(session.token) });
    for (const url of ['/queue', '/tickets', '/contacts', '/users', '/whatsapp']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(402);
      expect(res.json().error).toBe('ERR_SUBSCRIPTION_EXPIRED');
    }
    expect((await get('/auth/me')).statusCode).toBe(200);
    expect((await get(`/companies/listPlan/${c.company.id}`)).statusCode).toBe(200);
    await runInvoiceJob(t.app.ctx);
    const [invoice] = (await listInvoices(t, c.session)).invoices;
    const checkout = await t.app.inject({ method: 'POST', url: '/subscription', headers: bearer(c.session.token), payload: { invoiceId: invoice!.id, users: 3, connections: 3 } });
    expect(checkout.statusCode).toBe(200);

    await t.db.update(companies).set({ dueDate: '2020-01-01' }).where(eq(companies.id, 1));
    try {
      expect((await get('/queue', superUser)).statusCode).toBe(200);
    } finally {
      await t.db.update(companies).set({ dueDate: '2999-12-31' }).where(eq(companies.id, 1));
    }

    expect((await t.app.inject({ method: 'POST', url: `/invoices/${invoice!.id}/confirm`, headers: bearer(superUser.token) })).statusCode).toBe(200);
    expect(await dueDateOf(t, c.company.id)).toBe(addMonths(today(), 1));
    expect((await get('/queue')).statusCode).toBe(200);
  });
});

describe('payments through the Efí provider and its webhook', () => {
  let t: TestApp;
  let efi: FakeEfi;
  let port: number;
  const sockets: Socket[] = [];
  const webhookUrl = (secret = WEBHOOK_SECRET) => `http://127.0.0.1:${port}/subscription/webhook/pix?hmac=${secret}`;
  beforeAll(async () => {
    efi = await FakeEfi.start();
    t = await createTestApp({
      ...PIX_ENV,
      EFI_CLIENT_ID,
      EFI_CLIENT_SECRET,
      EFI_API_URL: efi.url,
      EFI_WEBHOOK_SECRET: WEBHOOK_SECRET,
      LOGIN_MAX_PER_IP: '10000',
      LOGIN_MAX_PER_EMAIL: '10000',
    });
    port = await listen(t);
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t.close();
    await efi.close();
  });

  async function checkout(c: Awaited<ReturnType<typeof companyWithPlan>>, choice = { users: 5, connections: 4 }) {
    const [invoice] = (await listInvoices(t, c.session)).invoices;
    const res = await t.app.inject({ method: 'POST', url: '/subscription', headers: bearer(c.session.token), payload: { invoiceId: invoice!.id, ...choice } });
    expect(res.statusCode).toBe(200);
    return { invoice: invoice!, charge: res.json() as SubscriptionResponse };
  }

  it('creates a cob with OAuth client credentials and answers its BR Code and amount', async () => {
    const c = await companyWithPlan(t, { dueDate: today() });
    await runInvoiceJob(t.app.ctx);
    const { charge } = await checkout(c);
    expect(charge.provider).toBe('efi');
    const cob = efi.cobs.get(charge.txid);
    expect(cob).toMatchObject({ status: 'ATIVA', valor: { original: '91.00' }, chave: 'pix@balcao.test' });
    expect(charge.qrcode.qrcode).toBe(cob!.pixCopiaECola);
    expect(charge.valor.original).toBe('91.00');
    expect(efi.tokenRequests).toBe(1);
  });

  it('a paid charge renews once: invoice Pago, due date by recurrence with month ends clamped, custom plan, CONCLUIDA to the company only', async () => {
    const c = await companyWithPlan(t, { dueDate: '2999-01-31' });
    const other = await companyWithPlan(t, { dueDate: '2999-01-31' });
    const superUser = await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    await t.app.inject({ method: 'PUT', url: `/companies/${c.company.id}`, headers: bearer(superUser.token), payload: { dueDate: '2999-01-31' } });
    const { invoice, charge } = await checkout(c);

    const mine = await openSocket(port, c.session);
    const theirs = await openSocket(port, other.session);
    sockets.push(mine, theirs);
    const heard = collect<PaymentEventPayload>(mine, `company-${c.company.id}-payment`);
    const leaked = collect(theirs, `company-${other.company.id}-payment`);
    const first = nextEvent<PaymentEventPayload>(mine, `company-${c.company.id}-payment`);

    // A webhook for a charge the provider has not concluded changes nothing (forged or early).
    expect(await efi.sendWebhook(charge.txid, webhookUrl())).toBe(200);
    expect(await dueDateOf(t, c.company.id)).toBe('2999-01-31');

    expect(await efi.pay(charge.txid, webhookUrl())).toBe(200);
    expect(await first).toMatchObject({ action: 'CONCLUIDA', company: { id: c.company.id, dueDate: '2999-02-28' }, invoice: { id: invoice.id, status: 'Pago' } });
    expect(await efi.sendWebhook(charge.txid, webhookUrl())).toBe(200);
    await sleep(200);

    expect(await dueDateOf(t, c.company.id)).toBe('2999-02-28');
    expect(heard).toHaveLength(1);
    expect(leaked).toHaveLength(0);
    const paid = (await listInvoices(t, c.session)).invoices.find((i) => i.id === invoice.id);
    expect(paid).toMatchObject({ status: 'Pago', value: 91, users: 5, connections: 4 });
    const plan = await t.app.inject({ method: 'GET', url: `/companies/listPlan/${c.company.id}`, headers: bearer(c.session.token) });
    expect(plan.json().plan).toMatchObject({ users: 5, connections: 4, amount: '91.00', isPublic: false });
  });

  it('renews an expired TRIMESTRAL company from today, and lifts the 402', async () => {
    const c = await companyWithPlan(t, { dueDate: '2020-05-10', recurrence: 'TRIMESTRAL' });
    await runInvoiceJob(t.app.ctx);
    const { charge } = await checkout(c, { users: 3, connections: 3 });
    expect((await t.app.inject({ method: 'GET', url: '/queue', headers: bearer(c.session.token) })).statusCode).toBe(402);
    expect(await efi.pay(charge.txid, webhookUrl())).toBe(200);
    expect(await dueDateOf(t, c.company.id)).toBe(addMonths(today(), 3));
    expect((await t.app.inject({ method: 'GET', url: '/queue', headers: bearer(c.session.token) })).statusCode).toBe(200);
  });

  it('refuses a webhook without the shared secret, and ignores txids it does not know', async () => {
    const c = await companyWithPlan(t, { dueDate: today() });
    await runInvoiceJob(t.app.ctx);
    const { charge } = await checkout(c);
    const forged = await efi.pay(charge.txid, webhookUrl('wrong-secret-0123456789'));
    expect(forged).toBe(401);
    expect(await dueDateOf(t, c.company.id)).toBe(today());
    const unknown = await t.app.inject({ method: 'POST', url: `/subscription/webhook?hmac=${WEBHOOK_SECRET}`, payload: { pix: [{ txid: 'NOPE0000000000000000000000000' }] } });
    expect(unknown.statusCode).toBe(200);
    const registration = await t.app.inject({ method: 'POST', url: `/subscription/webhook?hmac=${WEBHOOK_SECRET}`, payload: { evento: 'teste_webhook' } });
    expect(registration.statusCode).toBe(200);
    const paidLater = await efi.sendWebhook(charge.txid, webhookUrl());
    expect(paidLater).toBe(200);
    expect((await t.db.select().from(invoices).where(eq(invoices.txid, charge.txid)))[0]?.status).toBe(INVOICE_PAID);
  });
});
