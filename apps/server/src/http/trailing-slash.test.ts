import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type TestApp } from '../../test/helpers.js';
import { createAdminTestApp, setupRoles, type Roles } from '../../test/roles.js';

let t: TestApp;
let roles: Roles;
beforeAll(async () => {
  t = await createAdminTestApp();
  roles = await setupRoles(t);
});
afterAll(() => t.close());

/** Keys and value types, recursively (an array by its first item): two answers with the same shape read the same. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? [shape(value[0])] : [];
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, shape(v)]),
    );
  }
  return value === null ? 'null' : typeof value;
}

/** Every GET path of the OpenAPI document, its parameters filled with the caller's company id; `list` when it has none. */
function getPaths(companyId: number): { path: string; list: boolean }[] {
  const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths)
    .filter(([path, ops]) => 'get' in ops && path !== '/')
    .map(([path]) => ({ path: path.replace(/\{[^}]+\}/g, String(companyId)), list: !path.includes('{') }));
}

describe('trailing slashes', () => {
  it('every GET path answers the same status and shape with and without a trailing slash', async () => {
    const paths = getPaths(roles.companyId);
    expect(paths.map((p) => p.path)).toEqual(expect.arrayContaining(['/contacts', '/tags', '/queue', '/tickets', '/users', '/whatsapp']));
    for (const session of [roles.admin, roles.super]) {
      for (const { path, list } of paths) {
        const bare = await t.app.inject({ method: 'GET', url: path, headers: bearer(session.token) });
        const slashed = await t.app.inject({ method: 'GET', url: `${path}/`, headers: bearer(session.token) });
        expect(slashed.statusCode, `${path}/`).toBe(bare.statusCode);
        // A list path is always routed (a record path may answer 404 for an id it does not hold).
        if (list) expect(bare.statusCode, path).not.toBe(404);
        const json = (body: string) => (body ? shape(JSON.parse(body)) : body);
        if (bare.headers['content-type']?.toString().includes('json')) expect(json(slashed.body), `${path}/`).toEqual(json(bare.body));
      }
    }
  });

  it('serves the contacts page its list at /contacts/', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/contacts/?searchParam=&pageNumber=1', headers: bearer(roles.admin.token) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ contacts: [], count: 0, hasMore: false });
  });
});
