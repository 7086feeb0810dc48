import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companySettings } from '../../db/schema/index.js';
import { bearer, type TestApp } from '../../../test/helpers.js';
import { createAdminTestApp, setupRoles, type Roles } from '../../../test/roles.js';

let t: TestApp;
let roles: Roles;
beforeAll(async () => {
  t = await createAdminTestApp();
  roles = await setupRoles(t);
});
afterAll(() => t.close());

const put = (token: string, column: string, data: unknown) =>
  t.app.inject({ method: 'PUT', url: '/companySettings', headers: bearer(token), payload: { column, data } });
const one = (token: string, column: string) => t.app.inject({ method: 'GET', url: `/companySettingOne?column=${column}`, headers: bearer(token) });
const stored = async (companyId: number) => (await t.db.select().from(companySettings).where(eq(companySettings.companyId, companyId)))[0];

describe('GET /companySettingOne', () => {
  it('answers { [column]: value } of the caller company for any user', async () => {
    const res = await one(roles.user.token, 'scheduleType');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ scheduleType: 'disabled' });
  });

  it('refuses a column outside the known settings with 400', async () => {
    for (const column of ['passwordHash', 'companyId', 'id', '']) {
      const res = await one(roles.admin.token, column);
      expect(res.statusCode, column).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
  });
});

describe('PUT /companySettings', () => {
  it("writes one column of the caller's company and answers every setting", async () => {
    const res = await put(roles.admin.token, 'scheduleType', 'company');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ scheduleType: 'company', userRating: 'disabled' });
    expect((await stored(roles.companyId))?.scheduleType).toBe('company');
    expect((await stored(roles.otherCompanyId))?.scheduleType).toBe('disabled');
    expect((await one(roles.user.token, 'scheduleType')).json()).toEqual({ scheduleType: 'company' });
  });

  it('validates values by kind and refuses unknown columns', async () => {
    for (const [column, data] of [
      ['scheduleType', 'weekly'],
      ['userRating', 'yes'],
      ['chatBotType', 'list'],
      ['passwordHash', 'x'],
      ['transferMessage', 42],
    ] as const) {
      expect((await put(roles.admin.token, column, data)).statusCode, column).toBe(400);
    }
  });

  it('requires the transfer message before enabling the transfer notice (spec 1 §5), and the same for the other pairs', async () => {
    const early = await put(roles.admin.token, 'sendMsgTransfTicket', 'enabled');
    expect(early.statusCode).toBe(400);
    expect(early.json().issues).toEqual([{ path: 'transferMessage', message: 'Required' }]);
    expect((await stored(roles.companyId))?.sendMsgTransfTicket).toBe('disabled');

    expect((await put(roles.admin.token, 'transferMessage', 'Você foi transferido')).statusCode).toBe(200);
    expect((await put(roles.admin.token, 'sendMsgTransfTicket', 'enabled')).statusCode).toBe(200);
    const clearing = await put(roles.admin.token, 'transferMessage', '');
    expect(clearing.statusCode).toBe(400);

    expect((await put(roles.admin.token, 'acceptCallWhatsapp', 'disabled')).json().issues).toEqual([{ path: 'AcceptCallWhatsappMessage', message: 'Required' }]);
    expect((await put(roles.admin.token, 'sendGreetingAccepted', 'enabled')).statusCode).toBe(400);
    expect((await put(roles.admin.token, 'sendQueuePosition', 'enabled')).statusCode).toBe(400);
  });

  it("stores botLanguage, one of the four languages, for the caller's company only", async () => {
    expect((await one(roles.user.token, 'botLanguage')).json()).toEqual({ botLanguage: 'pt-BR' });
    for (const data of ['fr', 'EN', '', 7]) expect((await put(roles.admin.token, 'botLanguage', data)).statusCode, String(data)).toBe(400);
    expect((await put(roles.user.token, 'botLanguage', 'en')).statusCode).toBe(403);
    const res = await put(roles.admin.token, 'botLanguage', 'es');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ botLanguage: 'es' });
    expect((await stored(roles.companyId))?.botLanguage).toBe('es');
    expect((await stored(roles.otherCompanyId))?.botLanguage).toBe('pt-BR');
    expect((await put(roles.admin.token, 'botLanguage', null)).json()).toMatchObject({ botLanguage: 'pt-BR' });
  });

  it('is for admins only', async () => {
    const res = await put(roles.user.token, 'userRating', 'enabled');
    expect(res.statusCode).toBe(403);
    expect((await stored(roles.companyId))?.userRating).toBe('disabled');
  });
});
