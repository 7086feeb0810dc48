import type { QuickMessage } from '@balcao/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quickMessages } from '../../db/schema/index.js';
import { bearer, createTestApp, type TestApp } from '../../../test/helpers.js';
import { createPlainUser, setupRoles, type Roles } from '../../../test/roles.js';

let t: TestApp;
let roles: Roles;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_PER_IP: '10000', LOGIN_MAX_PER_EMAIL: '10000' });
  roles = await setupRoles(t);
});

afterAll(async () => {
  await t.close();
});

describe('GET /quick-messages/list', () => {
  it('lists the active general quick replies and the caller’s own, never others’ or another company’s', async () => {
    const { companyId, otherCompanyId } = roles;
    const colleague = await createPlainUser(t, companyId);
    await t.db.insert(quickMessages).values([
      { companyId, shortcode: 'ola', message: 'Olá, {{firstName}}!', geral: true, userId: roles.admin.user.id },
      { companyId, shortcode: 'pix', message: 'Nossa chave Pix', userId: roles.user.user.id, mediaPath: 'qr.png', mediaName: 'qr.png' },
      { companyId, shortcode: 'dele', message: 'Do colega', userId: colleague.user.id },
      { companyId, shortcode: 'off', message: 'Desativada', geral: true, status: false },
      { companyId: otherCompanyId, shortcode: 'fora', message: 'Outra empresa', geral: true },
    ]);

    const res = await t.app.inject({
      method: 'GET',
      url: `/quick-messages/list?companyId=${companyId}&userId=${roles.user.user.id}`,
      headers: bearer(roles.user.token),
    });
    expect(res.statusCode).toBe(200);
    const list = res.json<QuickMessage[]>();
    expect(list.map((q) => q.shortcode)).toEqual(['ola', 'pix']);
    expect(list[0]).toMatchObject({ geral: true, status: true, isMedia: false, mediaUrl: null, message: 'Olá, {{firstName}}!' });
    expect(list[1]).toMatchObject({ geral: false, userId: roles.user.user.id, isMedia: true, mediaName: 'qr.png' });
    expect(list[1]!.mediaUrl).toMatch(new RegExp(`^http.*/public/company${companyId}/qr\\.png$`));

    // Another company's admin naming this company sees only its own company's replies.
    const foreign = await t.app.inject({ method: 'GET', url: `/quick-messages/list?companyId=${companyId}`, headers: bearer(roles.otherAdmin.token) });
    expect(foreign.json<QuickMessage[]>().map((q) => q.shortcode)).toEqual(['fora']);

    const bad = await t.app.inject({ method: 'GET', url: '/quick-messages/list?companyId=abc', headers: bearer(roles.user.token) });
    expect(bad.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/quick-messages/list' })).statusCode).toBe(401);
  });
});
