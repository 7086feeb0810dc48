import { helpSchema, type Help } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { helps } from '../../db/schema/index.js';
import { bearer, nextEvent, type TestApp } from '../../../test/helpers.js';
import { openSocket, type Roles, rolesSuite } from '../../../test/roles.js';

let t: TestApp;
let roles: Roles;
let port: number;
const sockets = rolesSuite((suite) => ({ t, roles, port } = suite));

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

describe('helps', () => {
  let help: Help;

  it('the super user creates a help video and every company hears it', async () => {
    const listener = await openSocket(port, roles.user);
    sockets.push(listener);
    const heard = nextEvent(listener, `company-${roles.companyId}-help`);
    const res = await call(roles.super.token, 'POST', '/helps', { title: 'Primeiros passos', description: 'Como conectar', video: 'dQw4w9WgXcQ' });
    expect(res.statusCode).toBe(200);
    help = helpSchema.parse(res.json());
    expect(help).toMatchObject({ title: 'Primeiros passos', video: 'dQw4w9WgXcQ' });
    expect(await heard).toEqual({ action: 'create', record: help });
  });

  it('any user lists them (bare array) and the super user pages and searches them', async () => {
    await call(roles.super.token, 'POST', '/helps', { title: 'Filas', video: 'abc' });
    const list = await call(roles.user.token, 'GET', '/helps/list');
    expect(list.statusCode).toBe(200);
    expect(list.json().map((h: Help) => h.title)).toEqual(['Filas', 'Primeiros passos']);
    const page = await call(roles.admin.token, 'GET', '/helps?searchParam=passos&pageNumber=1');
    expect(page.json()).toMatchObject({ count: 1, hasMore: false, records: [{ id: help.id }] });
  });

  it('the super user edits and deletes; an unknown id is 404', async () => {
    const res = await call(roles.super.token, 'PUT', `/helps/${help.id}`, { title: 'Primeiros passos (novo)' });
    expect(res.json()).toMatchObject({ title: 'Primeiros passos (novo)', video: 'dQw4w9WgXcQ' });
    expect((await call(roles.super.token, 'DELETE', `/helps/${help.id}`)).statusCode).toBe(200);
    expect((await call(roles.super.token, 'PUT', `/helps/${help.id}`, { title: 'Again' })).json()).toEqual({ error: 'ERR_NO_HELP_FOUND' });
    expect((await call(roles.super.token, 'DELETE', `/helps/${help.id}`)).statusCode).toBe(404);
  });

  it('refuses bad input, and every change to anyone but the super user', async () => {
    const bad = await call(roles.super.token, 'POST', '/helps', { title: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues).toEqual([{ path: 'title', message: 'Required' }]);
    const [target] = await t.db.insert(helps).values({ title: 'Protegido' }).returning();
    for (const token of [roles.admin.token, roles.user.token, roles.otherAdmin.token]) {
      expect((await call(token, 'POST', '/helps', { title: 'Hack' })).statusCode).toBe(403);
      expect((await call(token, 'PUT', `/helps/${target?.id}`, { title: 'Hack' })).statusCode).toBe(403);
      expect((await call(token, 'DELETE', `/helps/${target?.id}`)).statusCode).toBe(403);
    }
    const [after] = await t.db.select().from(helps).where(eq(helps.id, target?.id ?? 0));
    expect(after?.title).toBe('Protegido');
    expect((await t.app.inject({ method: 'GET', url: '/helps/list' })).statusCode).toBe(401);
  });
});
