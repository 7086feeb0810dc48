import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../db/schema/index.js';
import { createConnection, eventually } from '../../test/connections.js';
import { PNG } from '../../test/fakes/graph-server.js';
import { bearer, createCompanyWithAdmin, createTestApp, login, type LoggedIn, type TestApp } from '../../test/helpers.js';
import { multipart } from '../../test/multipart.js';
import { createContact, createTicketRow } from '../../test/tickets.js';

/** Issue 9 point 8: one documented limit per kind of upload, enforced with its own error. */
let t: TestApp;
let admin: LoggedIn;
let ticketId: number;
let connId: number;
let dataDir: string;

const MB = 1024 * 1024;
const file = (name: string, size: number) => ({ field: 'medias', name, type: 'image/png', data: Buffer.concat([PNG, Buffer.alloc(size - PNG.length, 1)]) });
const companyFiles = () => {
  try {
    return readdirSync(join(dataDir, 'public', `company${admin.user.companyId}`));
  } catch {
    return [];
  }
};

/** Uploads stream to this node's spool folder first; nothing may stay there once a request is answered. */
const spoolEmptied = () => eventually(async () => readdirSync(t.app.ctx.storage.spoolDir).length === 0);

beforeAll(async () => {
  // The channel limit (MEDIA_LIMIT_MB) is higher than the upload limit: uploads must follow UPLOAD_LIMIT_MB.
  t = await createTestApp({ UPLOAD_LIMIT_MB: '1', UPLOAD_MAX_FILES: '3', MEDIA_LIMIT_MB: '64', LOGIN_MAX_PER_IP: '1000', LOGIN_MAX_PER_EMAIL: '1000' });
  dataDir = t.app.ctx.config.dataDir;
  const own = await createCompanyWithAdmin(t.db);
  admin = await login(t.app, own.email, own.password);
  connId = (await createConnection(t.db, own.company.id)).id;
  const contact = await createContact(t.db, own.company.id);
  ticketId = (await createTicketRow(t.db, { companyId: own.company.id, contactId: contact.id, whatsappId: connId, status: 'open', userId: admin.user.id })).id;
});

afterAll(async () => {
  await t?.close();
});

const postMessage = (form: ReturnType<typeof multipart>) =>
  t.app.inject({ method: 'POST', url: `/messages/${ticketId}`, headers: { ...bearer(admin.token), ...form.headers }, payload: form.payload });

describe('upload limits', () => {
  it('a message attachment over UPLOAD_LIMIT_MB is 413 ERR_FILE_TOO_LARGE, whatever the channel limit', async () => {
    const res = await postMessage(multipart({ body: 'x' }, file('big.png', MB + 1)));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: 'ERR_FILE_TOO_LARGE' });
    await spoolEmptied();
    const before = companyFiles().length;
    expect((await postMessage(multipart({ body: 'x' }, file('ok.png', MB - 1)))).statusCode).toBe(200);
    // The accepted file was moved from the spool into the company's folder.
    expect(companyFiles().length).toBe(before + 1);
    await spoolEmptied();
  });

  it('more than UPLOAD_MAX_FILES files in one request is 413 ERR_TOO_MANY_FILES, and nothing is stored', async () => {
    const before = companyFiles().length;
    const [{ n: messagesBefore }] = (await t.db.select({ n: count() }).from(messages).where(eq(messages.ticketId, ticketId))) as [{ n: number }];
    const res = await postMessage(multipart({ body: 'x' }, [1, 2, 3, 4].map((i) => file(`f${i}.png`, 100))));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'ERR_TOO_MANY_FILES' });
    expect(companyFiles().length).toBe(before);
    const [{ n: messagesAfter }] = (await t.db.select({ n: count() }).from(messages).where(eq(messages.ticketId, ticketId))) as [{ n: number }];
    expect(messagesAfter).toBe(messagesBefore);
    await spoolEmptied();
    expect((await postMessage(multipart({ body: 'x' }, [1, 2, 3].map((i) => file(`g${i}.png`, 100))))).statusCode).toBe(200);
  });

  it('greeting media over UPLOAD_LIMIT_MB is 413 ERR_FILE_TOO_LARGE', async () => {
    const form = multipart({}, { ...file('promo.png', MB + 1), field: 'file' });
    const res = await t.app.inject({ method: 'POST', url: `/whatsapp/${connId}/media-upload`, headers: { ...bearer(admin.token), ...form.headers }, payload: form.payload });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'ERR_FILE_TOO_LARGE' });
  });
});
