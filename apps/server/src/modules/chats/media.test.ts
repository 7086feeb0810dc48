import { CHAT_MEDIA_MAX_BYTES, type Chat, type ChatMessage, type ChatMessagesPage } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages } from '../../db/schema/index.js';
import { bearer, nextEvent, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { multipart } from '../../../test/multipart.js';
import { createAdminTestApp, createPlainUser, listen, openSocket, setupRoles, type Roles } from '../../../test/roles.js';

let t: TestApp;
let roles: Roles;
let outsider: LoggedIn;
let chat: Chat;

/** A real PNG header: the type check reads the first bytes. */
const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 1)]);

beforeAll(async () => {
  t = await createAdminTestApp();
  roles = await setupRoles(t);
  outsider = await createPlainUser(t, roles.companyId);
  const res = await t.app.inject({ method: 'POST', url: '/chats', headers: bearer(roles.admin.token), payload: { title: 'Arquivos', users: [roles.user.user.id] } });
  chat = res.json() as Chat;
});

afterAll(() => t.close());

function upload(who: LoggedIn, chatId: number, fields: Record<string, string>, files?: Parameters<typeof multipart>[1]) {
  const form = multipart(fields, files);
  return t.app.inject({ method: 'POST', url: `/chats/${chatId}/messages`, headers: { ...bearer(who.token), ...form.headers }, payload: form.payload });
}
const fetchMedia = (who: LoggedIn, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(who.token) });
const storedPath = async (id: number) => (await t.db.select().from(chatMessages).where(eq(chatMessages.id, id)))[0]!.mediaPath!;

describe('internal chat attachments', () => {
  it('a member sends a file with a caption; members download it, the others get 404', async () => {
    const socket = await openSocket(await listen(t), roles.user);
    try {
      const heard = nextEvent<{ action: string; newMessage: ChatMessage }>(socket, `company-${roles.companyId}-chat-${chat.id}`);
      const res = await upload(roles.admin, chat.id, { message: 'Escala de dezembro' }, { field: 'medias', name: 'escala.png', type: 'image/png', data: png });
      expect(res.statusCode, res.body).toBe(200);
      const message = res.json() as ChatMessage;
      expect(message).toMatchObject({ message: 'Escala de dezembro', mediaName: 'escala.png', mediaType: 'image/png', mediaUrl: `/chats/${chat.id}/messages/${message.id}/media` });
      expect((await heard).newMessage).toMatchObject({ id: message.id, mediaUrl: message.mediaUrl });

      const page = (await t.app.inject({ method: 'GET', url: `/chats/${chat.id}/messages`, headers: bearer(roles.user.token) })).json() as ChatMessagesPage;
      expect(page.records.at(-1)).toMatchObject({ id: message.id, mediaName: 'escala.png' });

      const got = await fetchMedia(roles.user, message.mediaUrl!);
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toBe('image/png');
      expect(got.headers['x-content-type-options']).toBe('nosniff');
      expect(got.rawPayload.equals(png)).toBe(true);
      // A colleague outside the chat, and another company, learn nothing.
      expect((await fetchMedia(outsider, message.mediaUrl!)).statusCode).toBe(404);
      expect((await fetchMedia(roles.otherAdmin, message.mediaUrl!)).json()).toEqual({ error: 'ERR_NO_CHAT_FOUND' });
      expect((await t.app.inject({ method: 'GET', url: message.mediaUrl! })).statusCode).toBe(401);
    } finally {
      socket.disconnect();
    }
  });

  it('a file alone: the chat preview shows its name; a document downloads under its name', async () => {
    const res = await upload(roles.user, chat.id, {}, { field: 'medias', name: 'relatório.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4 test') });
    expect(res.statusCode, res.body).toBe(200);
    const message = res.json() as ChatMessage;
    expect(message).toMatchObject({ message: '', mediaName: 'relatório.pdf', mediaType: 'application/pdf' });
    const got = (await t.app.inject({ method: 'GET', url: `/chats/${chat.uuid}`, headers: bearer(roles.admin.token) })).json() as Chat;
    expect(got.lastMessage).toBe('relatório.pdf');
    const file = await fetchMedia(roles.admin, message.mediaUrl!);
    expect(file.headers['content-disposition']).toBe(`attachment; filename*=UTF-8''${encodeURIComponent('relatório.pdf')}`);
  });

  it('refuses non-members and other companies before reading the upload, and stores nothing', async () => {
    const before = await t.db.select().from(chatMessages).where(eq(chatMessages.chatId, chat.id));
    for (const who of [outsider, roles.otherAdmin]) {
      const res = await upload(who, chat.id, { message: 'oi' }, { field: 'medias', name: 'a.png', type: 'image/png', data: png });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_CHAT_FOUND' });
    }
    expect(await t.db.select().from(chatMessages).where(eq(chatMessages.chatId, chat.id))).toHaveLength(before.length);
  });

  it('type-checks and size-limits the file; no file, or two, is a 400', async () => {
    const exe = await upload(roles.admin, chat.id, {}, { field: 'medias', name: 'setup.exe', type: 'application/octet-stream', data: Buffer.from('MZ\x90\x00rest') });
    expect(exe.statusCode).toBe(400);
    expect(exe.json()).toMatchObject({ error: 'ERR_INVALID_MEDIA_TYPE' });
    const html = await upload(roles.admin, chat.id, {}, { field: 'medias', name: 'x.html', type: 'text/html', data: Buffer.from('<script>alert(1)</script>') });
    expect(html.json()).toMatchObject({ error: 'ERR_INVALID_MEDIA_TYPE' });
    const big = await upload(roles.admin, chat.id, {}, { field: 'medias', name: 'big.png', type: 'image/png', data: Buffer.concat([png, Buffer.alloc(CHAT_MEDIA_MAX_BYTES)]) });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ error: 'ERR_FILE_TOO_LARGE' });
    expect((await upload(roles.admin, chat.id, { message: 'sem arquivo' })).json()).toMatchObject({ error: 'ERR_EMPTY_MESSAGE' });
    const two = await upload(roles.admin, chat.id, {}, [
      { field: 'medias', name: 'a.png', type: 'image/png', data: png },
      { field: 'medias', name: 'b.png', type: 'image/png', data: png },
    ]);
    expect(two.statusCode).toBe(400);
    expect(two.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    // JSON messages are as before.
    expect((await t.app.inject({ method: 'POST', url: `/chats/${chat.id}/messages`, headers: bearer(roles.admin.token), payload: { message: '' } })).statusCode).toBe(400);
  });

  it('deleting the chat removes its files', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/chats', headers: bearer(roles.admin.token), payload: { title: 'Temporário', users: [roles.user.user.id] } });
    const temp = res.json() as Chat;
    const sent = (await upload(roles.admin, temp.id, {}, { field: 'medias', name: 'a.png', type: 'image/png', data: png })).json() as ChatMessage;
    const path = t.app.ctx.storage.pathOf(roles.companyId, await storedPath(sent.id));
    expect(existsSync(path)).toBe(true);
    expect((await t.app.inject({ method: 'DELETE', url: `/chats/${temp.id}`, headers: bearer(roles.admin.token) })).statusCode).toBe(200);
    expect(existsSync(path)).toBe(false);
  });
});
