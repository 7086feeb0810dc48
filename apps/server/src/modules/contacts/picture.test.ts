import { eq } from 'drizzle-orm';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts } from '../../db/schema/index.js';
import { startJobs, stopJobs } from '../../jobs/boss.js';
import { bearer, createCompanyWithAdmin, createTestApp, login, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createConnection, eventually } from '../../../test/connections.js';
import { FakeGraph, PNG } from '../../../test/fakes/graph-server.js';
import { messengerText, metaEnv, postWebhook } from '../../../test/fakes/meta-webhook.js';
import { registerContactPictureJob } from './picture.js';

/** The channel's CDN: serves a PNG per path and counts the downloads. */
class FakeCdn {
  readonly hits: string[] = [];
  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<FakeCdn> {
    const holder: { cdn?: FakeCdn } = {};
    const server = createServer((req, res) => {
      holder.cdn?.hits.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length });
      res.end(PNG);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    holder.cdn = new FakeCdn(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return holder.cdn;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

let t: TestApp;
let graph: FakeGraph;
let cdn: FakeCdn;
let boss: PgBoss;
let admin: LoggedIn;
let companyId: number;
let pageId: string;
let mid = 0;

beforeAll(async () => {
  graph = await FakeGraph.start();
  cdn = await FakeCdn.start();
  t = await createTestApp(metaEnv(graph.url));
  boss = await startJobs(t.pool.options.connectionString!, t.app.log);
  t.app.ctx.boss = boss;
  await registerContactPictureJob(boss, t.app.ctx);
  const c = await createCompanyWithAdmin(t.db);
  companyId = c.company.id;
  admin = await login(t.app, c.email, c.password);
  pageId = (await createConnection(t.db, companyId)).facebookPageId!;
});

afterAll(async () => {
  t.app.ctx.boss = undefined;
  await stopJobs(boss);
  await t.close();
  await graph.close();
  await cdn.close();
});

const say = async (psid: string) => {
  mid += 1;
  expect((await postWebhook(t.app, messengerText(pageId, psid, `m_pic_${mid}`, 'Olá'))).statusCode).toBe(200);
};
const contactOf = async (psid: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/contacts?searchParam=${psid}`, headers: bearer(admin.token) });
  return (res.json() as { contacts: { id: number; number: string; urlPicture: string | null; profilePicUrl: string | null }[] }).contacts.find(
    (c) => c.number === psid,
  );
};
const ownPrefix = () => `${t.app.ctx.config.apiUrl}/public/company${companyId}/contacts/`;
const served = (url: string) => t.app.inject({ method: 'GET', url: url.slice(t.app.ctx.config.apiUrl.length) });
const profileCalls = (psid: string) => graph.requests.filter((r) => r.method === 'GET' && r.path === `/v21.0/${psid}`).length;

describe('contact pictures', () => {
  it("downloads a new contact's picture once and answers our own URL, which serves the image", async () => {
    graph.profilePic = `${cdn.origin}/pp/first.png?oe=expiring`;
    await say('7000001');
    const contact = await eventually(async () => {
      const c = await contactOf('7000001');
      return c?.urlPicture?.startsWith(ownPrefix()) ? c : undefined;
    }, 15_000);
    expect(contact.profilePicUrl).toBe(contact.urlPicture);
    expect(cdn.hits).toEqual(['/pp/first.png?oe=expiring']);
    const image = await served(contact.urlPicture!);
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload).toEqual(PNG);

    // Later messages within the day neither ask the channel nor download again.
    await say('7000001');
    await say('7000001');
    await new Promise((r) => setTimeout(r, 1500));
    expect(cdn.hits).toHaveLength(1);
    expect(profileCalls('7000001')).toBe(1);
    expect((await contactOf('7000001'))?.urlPicture).toBe(contact.urlPicture);
  });

  it('refreshes a day-old picture from the channel, replacing the stored copy', async () => {
    const before = (await contactOf('7000001'))!;
    await t.db
      .update(contacts)
      .set({ pictureFetchedAt: new Date(Date.now() - 25 * 3600 * 1000) })
      .where(eq(contacts.id, before.id));
    graph.profilePic = `${cdn.origin}/pp/second.png?oe=new`;
    await say('7000001');
    const after = await eventually(async () => {
      const c = await contactOf('7000001');
      return c?.urlPicture && c.urlPicture !== before.urlPicture ? c : undefined;
    }, 15_000);
    expect(after.urlPicture!.startsWith(ownPrefix())).toBe(true);
    expect(cdn.hits).toEqual(['/pp/first.png?oe=expiring', '/pp/second.png?oe=new']);
    expect((await served(after.urlPicture!)).statusCode).toBe(200);
    expect((await served(before.urlPicture!)).statusCode).toBe(404);
  });

  it('tries a failed download again only a day later', async () => {
    graph.profilePic = 'http://192.0.2.1/unreachable.png';
    await say('7000002');
    const row = await eventually(async () => {
      const [c] = await t.db.select().from(contacts).where(eq(contacts.number, '7000002'));
      return c?.pictureFetchedAt ? c : undefined;
    }, 15_000);
    expect(row.pictureSourceUrl).toBeNull();
    await say('7000002');
    await new Promise((r) => setTimeout(r, 1000));
    expect(profileCalls('7000002')).toBe(1);
  });
});
