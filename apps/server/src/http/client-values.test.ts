import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queues } from '../db/schema/index.js';
import { bearer, type TestApp } from '../../test/helpers.js';
import { createConnection } from '../../test/connections.js';
import { createAdminTestApp, setupRoles, type Roles } from '../../test/roles.js';

/** Values as clients of this API family send them are normalised at the edge, stored and answered in the spec's form. */
let t: TestApp;
let roles: Roles;
let queueId: number;
beforeAll(async () => {
  t = await createAdminTestApp();
  roles = await setupRoles(t);
  const [queue] = await t.db.insert(queues).values({ companyId: roles.companyId, name: 'Vendas', color: '#112233' }).returning();
  queueId = queue!.id;
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(roles.admin.token), ...(payload ? { payload } : {}) });
const issuesOf = (res: { json(): unknown }) => ((res.json() as { issues?: { path: string }[] }).issues ?? []).map((i) => i.path);

describe('users', () => {
  it('reads "" as no connection, digits as ids, "enable"/"disable" and booleans as toggles, null as the default', async () => {
    const created = await call('POST', '/users', {
      name: 'Loose Client',
      email: 'loose@example.com',
      password: 'secret-123',
      whatsappId: '',
      queueIds: [String(queueId)],
      allTicket: 'enable',
      allHistoric: true,
      showDashboard: null,
      userClosePendingTicket: null,
      allowGroup: null,
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().id as number;
    expect((await call('GET', `/users/${id}`)).json()).toMatchObject({
      whatsappId: null,
      queues: [{ id: queueId }],
      allTicket: 'enabled',
      allHistoric: 'enabled',
      showDashboard: 'disabled',
      userClosePendingTicket: 'enabled',
      allowGroup: false,
    });

    const conn = await createConnection(t.db, roles.companyId, { channel: 'whatsapp' });
    const updated = await call('PUT', `/users/${id}`, { whatsappId: String(conn.id), allTicket: 'disable', allHistoric: false, allowGroup: 'true' });
    expect(updated.statusCode, updated.body).toBe(200);
    expect((await call('GET', `/users/${id}`)).json()).toMatchObject({ whatsappId: conn.id, allTicket: 'disabled', allHistoric: 'disabled', allowGroup: true });
    expect((await call('PUT', `/users/${id}`, { whatsappId: '' })).json()).toMatchObject({ whatsappId: null });
  });

  it('still refuses a value that is really wrong, naming the field', async () => {
    const res = await call('POST', '/users', { name: 'Wrong', email: 'wrong@example.com', password: 'secret-123', allTicket: 'maybe', whatsappId: 'abc' });
    expect(res.statusCode).toBe(400);
    expect(issuesOf(res)).toEqual(expect.arrayContaining(['allTicket', 'whatsappId']));
  });
});

describe('connections', () => {
  it('reads null booleans as their default, "enable" as enabled, "" as no id and digits as numbers', async () => {
    const res = await call('POST', '/whatsapp', {
      name: 'Loose connection',
      isDefault: null,
      allowGroup: null,
      importOldMessagesGroups: null,
      closedTicketsPostImported: null,
      enableImportMessage: 'false',
      groupAsTicket: 'enable',
      queueIds: [String(queueId)],
      sendIdQueue: '',
      promptId: '',
      integrationId: '',
      queueIdImportMessages: '',
      timeCreateNewTicket: '3',
    });
    expect(res.statusCode, res.body).toBe(200);
    const stored = (await call('GET', `/whatsapp/${res.json().id}`)).json();
    expect(stored).toMatchObject({
      isDefault: false,
      allowGroup: false,
      importOldMessagesGroups: false,
      closedTicketsPostImported: false,
      enableImportMessage: false,
      groupAsTicket: 'enabled',
      queues: [{ id: queueId }],
      sendIdQueue: null,
      promptId: null,
      integrationId: null,
      queueIdImportMessages: null,
      timeCreateNewTicket: 3,
    });
    const updated = await call('PUT', `/whatsapp/${stored.id}`, { name: 'Loose connection', groupAsTicket: 'disable', importOldMessagesGroups: 'true' });
    expect(updated.statusCode, updated.body).toBe(200);
    expect((await call('GET', `/whatsapp/${stored.id}`)).json()).toMatchObject({ groupAsTicket: 'disabled', importOldMessagesGroups: true });
  });

  it('still refuses a value that is really wrong, naming the field', async () => {
    const res = await call('POST', '/whatsapp', { name: 'Wrong connection', groupAsTicket: 'yes', allowGroup: 'sometimes' });
    expect(res.statusCode).toBe(400);
    expect(issuesOf(res)).toEqual(expect.arrayContaining(['groupAsTicket', 'allowGroup']));
  });
});

describe('PUT /companySettings', () => {
  const settings = async () => (await call('GET', `/companySettings/${roles.companyId}`)).json();

  it('stores true/false and "enable"/"disable" as enabled/disabled, null as the default', async () => {
    const cases: [string, unknown, string][] = [
      ['userRating', true, 'enabled'],
      ['sendGreetingMessageOneQueues', false, 'disabled'],
      ['requiredTag', 'enable', 'enabled'],
      ['acceptAudioMessageContact', 'disable', 'disabled'],
      ['acceptAudioMessageContact', null, 'enabled'],
      ['lgpdLink', 'https://example.com/lgpd', 'https://example.com/lgpd'],
      ['lgpdLink', null, ''],
    ];
    for (const [column, data, stored] of cases) {
      const res = await call('PUT', '/companySettings', { column, data });
      expect(res.statusCode, `${column}=${String(data)}: ${res.body}`).toBe(200);
      expect((await settings())[column], `${column}=${String(data)}`).toBe(stored);
    }
  });

  it('still refuses a value that is really wrong, naming the field', async () => {
    const res = await call('PUT', '/companySettings', { column: 'userRating', data: 'maybe' });
    expect(res.statusCode).toBe(400);
    expect(issuesOf(res)).toContain('data');
    expect((await settings()).userRating).toBe('enabled');
  });
});
