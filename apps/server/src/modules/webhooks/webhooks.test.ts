import { WEBHOOK_HEADERS, type WebhookDeliveriesPage, type WebhookEndpoint } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries } from '../../db/schema/index.js';
import { startJobs, stopJobs } from '../../jobs/boss.js';
import { bearer, createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createConnection, eventually } from '../../../test/connections.js';
import { createPlainUser, setupRoles, type Roles } from '../../../test/roles.js';
import { createContact, createTicketRow } from '../../../test/tickets.js';
import { registerWebhookJobs } from './jobs.js';
import { verifyWebhook } from './signature.js';
import { Receiver } from '../../../test/fakes/webhook-receiver.js';

let t: TestApp;
let boss: PgBoss;
let roles: Roles;
let receiver: Receiver;
let plain: LoggedIn;

beforeAll(async () => {
  receiver = await Receiver.start();
  t = await createTestApp({ WEBHOOK_RETRY_BASE_MS: '200', WEBHOOK_MAX_ATTEMPTS: '3', LOGIN_MAX_PER_IP: '10000', LOGIN_MAX_PER_EMAIL: '10000' });
  boss = await startJobs(t.pool.options.connectionString!, t.app.log);
  t.app.ctx.boss = boss;
  await registerWebhookJobs(boss, t.app.ctx);
  roles = await setupRoles(t);
  plain = await createPlainUser(t, roles.companyId);
});

afterAll(async () => {
  t.app.ctx.boss = undefined;
  await stopJobs(boss);
  await t.close();
  await receiver.close();
});

const call = (who: LoggedIn, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: bearer(who.token), ...(payload === undefined ? {} : { payload: payload as object }) });

async function register(who: LoggedIn, path: string, events: string[]): Promise<WebhookEndpoint> {
  const res = await call(who, 'POST', '/webhooks', { url: `${receiver.url}${path}`, events });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as WebhookEndpoint;
}

const deliveriesOf = async (who: LoggedIn, id: number) => (await call(who, 'GET', `/webhooks/${id}/deliveries`)).json() as WebhookDeliveriesPage;

describe('outbound webhooks', () => {
  it('signs each delivery with the endpoint secret (HMAC-SHA256 of timestamp.body) and lists it as delivered', async () => {
    const endpoint = await register(roles.admin, '/contacts', ['contact.created']);
    expect(endpoint.secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    const created = await call(roles.admin, 'POST', '/contacts', { name: 'Joana Prado', number: '5511987654321' });
    expect(created.statusCode, created.body).toBe(200);

    const [hit] = await eventually(async () => (receiver.at('/contacts').length ? receiver.at('/contacts') : undefined));
    const timestamp = Number(hit!.headers[WEBHOOK_HEADERS.timestamp]);
    const signature = String(hit!.headers[WEBHOOK_HEADERS.signature]);
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyWebhook(endpoint.secret, timestamp, hit!.body, signature)).toBe(true);
    // Any change of the body, the timestamp or the secret breaks it.
    expect(verifyWebhook(endpoint.secret, timestamp, hit!.body.replace('Joana', 'Joao'), signature)).toBe(false);
    expect(verifyWebhook(endpoint.secret, timestamp + 1, hit!.body, signature)).toBe(false);
    expect(verifyWebhook('whsec_other', timestamp, hit!.body, signature)).toBe(false);
    expect(hit!.headers[WEBHOOK_HEADERS.event]).toBe('contact.created');
    const body = JSON.parse(hit!.body) as { id: number; event: string; data: { contact: { name: string } } };
    expect(body).toMatchObject({ event: 'contact.created', data: { contact: { name: 'Joana Prado' } } });
    expect(String(body.id)).toBe(hit!.headers[WEBHOOK_HEADERS.delivery]);

    const listed = await eventually(async () => {
      const page = await deliveriesOf(roles.admin, endpoint.id);
      return page.records[0]?.status === 'delivered' ? page : undefined;
    });
    expect(listed.records[0]).toMatchObject({ id: body.id, event: 'contact.created', attempts: 1, lastStatusCode: 200, lastError: null });
  });

  it('retries a failing receiver with backoff until it answers, sending the same delivery each time', async () => {
    receiver.failures['/flaky'] = 2;
    const endpoint = await register(roles.admin, '/flaky', ['contact.created']);
    const ping = await call(roles.admin, 'POST', `/webhooks/${endpoint.id}/test`);
    expect(ping.statusCode).toBe(200);
    const deliveryId = (ping.json() as { id: number }).id;

    const done = await eventually(async () => {
      const [row] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
      return row?.status === 'delivered' ? row : undefined;
    }, 15_000);
    expect(done.attempts).toBe(3);
    const hits = receiver.at('/flaky');
    expect(hits).toHaveLength(3);
    expect(new Set(hits.map((h) => h.body)).size).toBe(1);
    expect(hits.every((h) => h.headers[WEBHOOK_HEADERS.delivery] === String(deliveryId))).toBe(true);
    expect(JSON.parse(hits[0]!.body)).toMatchObject({ event: 'webhook.ping' });
  });

  it('gives up after the last attempt and shows the failure', async () => {
    receiver.failures['/down'] = 100;
    const endpoint = await register(roles.admin, '/down', ['contact.created']);
    await call(roles.admin, 'POST', `/webhooks/${endpoint.id}/test`);
    const failed = await eventually(async () => {
      const page = await deliveriesOf(roles.admin, endpoint.id);
      return page.records[0]?.status === 'failed' ? page.records[0] : undefined;
    }, 15_000);
    expect(failed).toMatchObject({ attempts: 3, lastStatusCode: 500, nextAttemptAt: null });
    expect(failed.lastError).toContain('receiver down');
    expect(receiver.at('/down')).toHaveLength(3);
  });

  it('sends only the subscribed events of enabled endpoints: ticket status changes', async () => {
    const statusHook = await register(roles.admin, '/status', ['ticket.status_changed']);
    const off = await register(roles.admin, '/off', ['ticket.status_changed']);
    expect((await call(roles.admin, 'PUT', `/webhooks/${off.id}`, { enabled: false })).json()).toMatchObject({ enabled: false });
    const connection = await createConnection(t.db, roles.companyId);
    const contact = await createContact(t.db, roles.companyId);
    const ticket = await createTicketRow(t.db, { companyId: roles.companyId, contactId: contact.id, whatsappId: connection.id, status: 'open', userId: roles.admin.user.id });
    const closed = await call(roles.admin, 'PUT', `/tickets/${ticket.id}`, { status: 'closed' });
    expect(closed.statusCode, closed.body).toBe(200);

    const [hit] = await eventually(async () => (receiver.at('/status').length ? receiver.at('/status') : undefined));
    expect(JSON.parse(hit!.body)).toMatchObject({ event: 'ticket.status_changed', data: { previousStatus: 'open', ticket: { id: ticket.id, status: 'closed' } } });
    // A contact created meanwhile is not what this endpoint asked for; the disabled one got nothing.
    await call(roles.admin, 'POST', '/contacts', { name: 'Outro Contato', number: '5511911112222' });
    expect((await deliveriesOf(roles.admin, statusHook.id)).records.map((d) => d.event)).toEqual(['ticket.status_changed']);
    expect((await deliveriesOf(roles.admin, off.id)).count).toBe(0);
    expect(receiver.at('/off')).toHaveLength(0);
  });

  it('keeps each company to its own endpoints and events', async () => {
    const mine = await register(roles.admin, '/mine', ['contact.created']);
    const theirs = await register(roles.otherAdmin, '/theirs', ['contact.created']);
    expect(((await call(roles.otherAdmin, 'GET', '/webhooks')).json() as WebhookEndpoint[]).map((e) => e.id)).toEqual([theirs.id]);
    for (const [method, url, payload] of [
      ['PUT', `/webhooks/${mine.id}`, { enabled: false }],
      ['DELETE', `/webhooks/${mine.id}`, undefined],
      ['GET', `/webhooks/${mine.id}/deliveries`, undefined],
      ['POST', `/webhooks/${mine.id}/test`, undefined],
      ['POST', `/webhooks/${mine.id}/secret`, undefined],
    ] as const) {
      const res = await call(roles.otherAdmin, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toMatchObject({ error: 'ERR_NO_WEBHOOK_FOUND' });
    }
    await call(roles.otherAdmin, 'POST', '/contacts', { name: 'Cliente Deles', number: '5511933334444' });
    await eventually(async () => receiver.at('/theirs').length > 0);
    expect(receiver.at('/mine')).toHaveLength(0);
    expect((await deliveriesOf(roles.admin, mine.id)).count).toBe(0);
  });

  it('is for admins: plain users get 403, no token 401; bad URLs and events 400', async () => {
    expect((await call(plain, 'GET', '/webhooks')).statusCode).toBe(403);
    const byUser = await call(plain, 'POST', '/webhooks', { url: `${receiver.url}/x`, events: ['contact.created'] });
    expect(byUser.statusCode).toBe(403);
    expect(byUser.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    expect((await t.app.inject({ method: 'GET', url: '/webhooks' })).statusCode).toBe(401);
    for (const payload of [
      { url: 'ftp://example.com/hook', events: ['contact.created'] },
      { url: 'not a url', events: ['contact.created'] },
      { url: `${receiver.url}/x`, events: [] },
      { url: `${receiver.url}/x`, events: ['ticket.deleted'] },
    ]) {
      const res = await call(roles.admin, 'POST', '/webhooks', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    }
  });

  it('rotates the secret: the next delivery is signed with the new one', async () => {
    const endpoint = await register(roles.admin, '/rotate', ['contact.created']);
    const rotated = (await call(roles.admin, 'POST', `/webhooks/${endpoint.id}/secret`)).json() as WebhookEndpoint;
    expect(rotated.secret).not.toBe(endpoint.secret);
    await call(roles.admin, 'POST', `/webhooks/${endpoint.id}/test`);
    const [hit] = await eventually(async () => (receiver.at('/rotate').length ? receiver.at('/rotate') : undefined));
    const ts = Number(hit!.headers[WEBHOOK_HEADERS.timestamp]);
    const sig = String(hit!.headers[WEBHOOK_HEADERS.signature]);
    expect(verifyWebhook(rotated.secret, ts, hit!.body, sig)).toBe(true);
    expect(verifyWebhook(endpoint.secret, ts, hit!.body, sig)).toBe(false);
  });
});
