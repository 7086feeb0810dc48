import type { Message } from '@balcao/contracts';
import { existsSync, readdirSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../db/schema/index.js';
import { createConnection, eventually } from '../../test/connections.js';
import { FakeGraph, PNG } from '../../test/fakes/graph-server.js';
import { metaEnv, postWebhook } from '../../test/fakes/meta-webhook.js';
import { FakeS3, s3Env } from '../../test/fakes/s3-server.js';
import { bearer, createCompanyWithAdmin, createTestApp, login, type LoggedIn, type TestApp } from '../../test/helpers.js';
import { multipart } from '../../test/multipart.js';
import { createContact, createTicketRow } from '../../test/tickets.js';

/**
 * Issue 19 point 3: with S3_BUCKET, received and uploaded media go to the bucket (through
 * @aws-sdk/client-s3, against a local fake of the S3 API) and are served at the same
 * /public paths; nothing is written to the node's folder.
 */

let s3: FakeS3;
let graph: FakeGraph;
let t: TestApp;
let admin: LoggedIn;
let companyId: number;
let pageId: string;
let ticketId: number;

beforeAll(async () => {
  s3 = await FakeS3.start();
  graph = await FakeGraph.start();
  t = await createTestApp({
    ...metaEnv(graph.url),
    ...s3Env(s3, 'balcao-media'),
    S3_REGION: 'sa-east-1',
  });
  const own = await createCompanyWithAdmin(t.db);
  companyId = own.company.id;
  admin = await login(t.app, own.email, own.password);
  const page = await createConnection(t.db, companyId);
  pageId = page.facebookPageId!;
  const contact = await createContact(t.db, companyId, { channel: 'facebook', number: '7700001' });
  ticketId = (await createTicketRow(t.db, { companyId, contactId: contact.id, whatsappId: page.id, channel: 'facebook', status: 'open', userId: admin.user.id })).id;
});
afterAll(async () => {
  await t?.close();
  await graph?.close();
  await s3?.close();
});

const served = (fileName: string) => t.app.inject({ method: 'GET', url: `/public/company${companyId}/${fileName}` });

describe('media in an S3 bucket', () => {
  it('stores an uploaded attachment in the bucket and serves it at its /public path', async () => {
    const form = multipart({ body: 'foto', isPrivate: 'false' }, { field: 'medias', name: 'foto.png', type: 'image/png', data: PNG });
    const res = await t.app.inject({ method: 'POST', url: `/messages/${ticketId}`, headers: { ...bearer(admin.token), ...form.headers }, payload: form.payload });
    expect(res.statusCode, res.body).toBe(200);
    const fileName = new URL(res.json<Message>().mediaUrl!).pathname.split('/').pop()!;
    const object = s3.objects.get(`/balcao-media/company${companyId}/${fileName}`);
    expect(object?.body.equals(PNG)).toBe(true);
    expect(object?.type).toBe('image/png');
    expect(existsSync(t.app.ctx.storage.pathOf(companyId, fileName))).toBe(false);
    // The upload was streamed to the bucket from this node's spool file, which is gone after the answer.
    await eventually(async () => readdirSync(t.app.ctx.storage.spoolDir).length === 0);
    const get = await served(fileName);
    expect(get.statusCode).toBe(200);
    expect(get.headers['content-type']).toBe('image/png');
    expect(get.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(get.rawPayload.equals(PNG)).toBe(true);
  });

  it('stores a received image in the bucket and serves it', async () => {
    const time = Date.now();
    const body = {
      object: 'page',
      entry: [{ id: pageId, time, messaging: [{ sender: { id: '7700002' }, recipient: { id: pageId }, timestamp: time, message: { mid: 'm_s3_image', attachments: [{ type: 'image', payload: { url: graph.mediaUrl('photo.png') } }] } }] }],
    };
    expect((await postWebhook(t.app, body)).statusCode).toBe(200);
    const row = await eventually(async () => (await t.db.select().from(messages).where(eq(messages.wid, 'm_s3_image')))[0]);
    expect(row.mediaUrl).toMatch(/^[0-9a-f]{32}\.png$/);
    expect(s3.objects.get(`/balcao-media/company${companyId}/${row.mediaUrl}`)?.body.equals(PNG)).toBe(true);
    expect(existsSync(t.app.ctx.storage.pathOf(companyId, row.mediaUrl!))).toBe(false);
    expect((await served(row.mediaUrl!)).rawPayload.equals(PNG)).toBe(true);
  });

  it('answers 404 for a name the bucket does not hold, and for a folder that is not a company', async () => {
    expect((await served('0123456789abcdef0123456789abcdef.png')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/public/elsewhere/x.png' })).statusCode).toBe(404);
  });

  it("removes every object of a deleted company's prefix, and only those", async () => {
    s3.objects.set(`/balcao-media/company${companyId}/a.png`, { body: PNG, type: 'image/png' });
    s3.objects.set(`/balcao-media/company${companyId}/contacts/b.png`, { body: PNG, type: 'image/png' });
    s3.objects.set(`/balcao-media/company${companyId + 1000}/c.png`, { body: PNG, type: 'image/png' });
    await t.app.ctx.storage.removeCompany(companyId);
    const left = [...s3.objects.keys()];
    expect(left.filter((k) => k.startsWith(`/balcao-media/company${companyId}/`))).toEqual([]);
    expect(left).toContain(`/balcao-media/company${companyId + 1000}/c.png`);
  });
});
