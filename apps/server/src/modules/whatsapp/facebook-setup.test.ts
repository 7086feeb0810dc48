import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plans, queues } from '../../db/schema/index.js';
import { bearer, createCompanyWithAdmin, createTestApp, login, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { FakeGraph } from '../../../test/fakes/graph-server.js';
import { metaEnv } from '../../../test/fakes/meta-webhook.js';

let graph: FakeGraph;
let t: TestApp;
beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await createTestApp(metaEnv(graph.url));
});
afterAll(async () => {
  await t.close();
  await graph.close();
});

let plansMade = 0;
async function companyAdmin(): Promise<{ admin: LoggedIn; companyId: number }> {
  plansMade += 1;
  const [plan] = await t.db.insert(plans).values({ name: `Meta plan ${plansMade}`, users: 10, connections: 5, queues: 5 }).returning();
  const c = await createCompanyWithAdmin(t.db, { planId: plan!.id });
  return { admin: await login(t.app, c.email, c.password), companyId: c.company.id };
}

const connect = (who: LoggedIn, payload: object, app = t.app) =>
  app.inject({ method: 'POST', url: '/facebook', headers: bearer(who.token), payload: { facebookUserId: '123', facebookUserToken: 'EAAuser-short-lived', ...payload } });

describe('POST /facebook: the first connection of a company', () => {
  it('gives each new Page the queues chosen with the login', async () => {
    const { admin, companyId } = await companyAdmin();
    const [queue] = await t.db.insert(queues).values({ companyId, name: 'Atendimento', color: '#0A7E4A' }).returning();
    const res = await connect(admin, { queueIds: [queue!.id] });
    expect(res.statusCode).toBe(200);
    const created = res.json() as { id: number; queues: { id: number; name: string }[] }[];
    expect(created).toHaveLength(2);
    for (const w of created) expect(w.queues.map((q) => q.name)).toEqual(['Atendimento']);

    // The list the connections page reads agrees.
    const list = (await t.app.inject({ url: '/whatsapp', headers: bearer(admin.token) })).json() as { queues: { id: number }[] }[];
    expect(list.every((w) => w.queues.map((q) => q.id).includes(queue!.id))).toBe(true);
  });

  it("refuses another company's queue and creates nothing", async () => {
    const mine = await companyAdmin();
    const theirs = await companyAdmin();
    const [foreign] = await t.db.insert(queues).values({ companyId: theirs.companyId, name: 'Deles', color: '#123456' }).returning();
    const res = await connect(mine.admin, { queueIds: [foreign!.id] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    expect((await t.app.inject({ url: '/whatsapp', headers: bearer(mine.admin.token) })).json()).toEqual([]);
  });

  it('names what is missing when the server has no Meta app configured', async () => {
    const bare = await createTestApp({ GRAPH_API_URL: graph.url });
    try {
      const c = await createCompanyWithAdmin(bare.db);
      const admin = await login(bare.app, c.email, c.password);
      const res = await connect(admin, {}, bare.app);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_FACEBOOK_NOT_CONFIGURED' });
      expect(res.json().message).toContain('FACEBOOK_APP_ID');
    } finally {
      await bare.close();
    }
  });
});
