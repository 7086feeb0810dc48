import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, users } from '../../db/schema/index.js';
import { bearer, createTestApp, login, type TestApp } from '../../../test/helpers.js';
import { setupRoles, type Roles } from '../../../test/roles.js';

/** Issue 9 point 9: the spec's 5–50 length stays, the most common passwords are refused wherever one is chosen. */
let t: TestApp;
let roles: Roles;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_PER_IP: '1000', LOGIN_MAX_PER_EMAIL: '1000' });
  roles = await setupRoles(t);
});
afterAll(() => t.close());

const COMMON = ['123456', 'senha123', 'password', 'qwerty', '12345', 'aaaaa', 'iloveyou', 'brasil', 'admin', 'secret1'];
const refused = { error: 'ERR_COMMON_PASSWORD', message: 'choose a less common password' };

let seq = 0;
const signup = (password: string) => {
  seq += 1;
  return t.app.inject({
    method: 'POST',
    url: '/auth/signup',
    payload: { companyName: `Padaria ${seq}`, name: 'Maria Silva', email: `maria-${seq}@padaria.example`, password, planId: 1 },
  });
};

describe('common passwords', () => {
  it('signup refuses each of them with ERR_COMMON_PASSWORD and creates nothing; five random characters pass', async () => {
    const [before] = await t.db.select({ n: count() }).from(companies);
    for (const password of COMMON) {
      const res = await signup(password);
      expect(res.statusCode, password).toBe(400);
      expect(res.json(), password).toEqual(refused);
    }
    const [after] = await t.db.select({ n: count() }).from(companies);
    expect(after!.n).toBe(before!.n);
    expect((await signup('xk9#q')).statusCode).toBe(200);
  });

  it('a user created or changed by an admin cannot get one; the old password keeps working', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/users',
      headers: bearer(roles.admin.token),
      payload: { name: 'Ana Souza', email: 'ana-common@example.com', password: 'qwerty123', profile: 'user' },
    });
    expect(created.statusCode).toBe(400);
    expect(created.json()).toEqual(refused);
    expect(await t.db.select().from(users).where(eq(users.email, 'ana-common@example.com'))).toEqual([]);

    const changed = await t.app.inject({ method: 'PUT', url: `/users/${roles.user.user.id}`, headers: bearer(roles.admin.token), payload: { password: 'password1' } });
    expect(changed.statusCode).toBe(400);
    expect(changed.json()).toEqual(refused);
    await expect(login(t.app, roles.user.user.email, 'password-123')).resolves.toBeTruthy();
  });

  it('the super user cannot give a company admin one either', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/companies',
      headers: bearer(roles.super.token),
      payload: { name: 'Loja Comum', email: 'dono@loja-comum.example', password: 'abc123', planId: 1 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(refused);
  });
});
