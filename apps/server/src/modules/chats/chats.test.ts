import type { Chat, ChatMessage, ChatMessagesPage, ChatsPage } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chats, plans } from '../../db/schema/index.js';
import { bearer, collect, createCompanyWithAdmin, login, nextEvent, sleep, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createAdminTestApp, createPlainUser, listen, openSocket, setupRoles, type Roles } from '../../../test/roles.js';

let t: TestApp;
let roles: Roles;
let port: number;
/** A second plain user of the same company, kept out of the chats below unless added. */
let outsider: LoggedIn;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createAdminTestApp();
  roles = await setupRoles(t);
  outsider = await createPlainUser(t, roles.companyId);
  port = await listen(t);
});

afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.close();
});

const call = (who: LoggedIn, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: bearer(who.token), ...(payload === undefined ? {} : { payload: payload as object }) });

async function socketOf(who: LoggedIn): Promise<Socket> {
  const s = await openSocket(port, who);
  sockets.push(s);
  return s;
}

async function newChat(title = 'Plantão', users: unknown[] = [{ id: roles.user.user.id, name: 'x' }]): Promise<Chat> {
  const res = await call(roles.admin, 'POST', '/chats', { title, users });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Chat;
}

const unreadsOf = (chat: Chat, userId: number) => chat.users.find((u) => u.userId === userId)?.unreads;

describe('internal chat', () => {
  it('creates a chat with the owner as a member and lists it only to its members', async () => {
    const chat = await newChat('Equipe da manhã');
    expect(chat).toMatchObject({ title: 'Equipe da manhã', ownerId: roles.admin.user.id, lastMessage: '' });
    expect(chat.users.map((u) => u.userId).sort()).toEqual([roles.admin.user.id, roles.user.user.id].sort());
    expect(chat.uuid).toMatch(/^[0-9a-f-]{36}$/);

    const mine = (await call(roles.user, 'GET', '/chats')).json() as ChatsPage;
    expect(mine.records.map((c) => c.id)).toContain(chat.id);
    const theirs = (await call(outsider, 'GET', '/chats')).json() as ChatsPage;
    expect(theirs.records.map((c) => c.id)).not.toContain(chat.id);
    // By uuid (the web app's /chats/{uuid}), for members only.
    expect((await call(roles.user, 'GET', `/chats/${chat.uuid}`)).json()).toMatchObject({ id: chat.id });
    expect((await call(outsider, 'GET', `/chats/${chat.uuid}`)).statusCode).toBe(404);
    // Search by title.
    const found = (await call(roles.admin, 'GET', '/chats?searchParam=manhã')).json() as ChatsPage;
    expect(found.records.map((c) => c.id)).toEqual([chat.id]);
  });

  it('refuses a chat without a title or without users, and users of another company', async () => {
    for (const payload of [{ title: '', users: [roles.user.user.id] }, { title: 'Sem gente', users: [] }, { title: '   ', users: [1] }]) {
      const res = await call(roles.admin, 'POST', '/chats', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    }
    const before = await t.db.select().from(chats).where(eq(chats.companyId, roles.companyId));
    const foreign = await call(roles.admin, 'POST', '/chats', { title: 'Infiltrado', users: [roles.otherAdmin.user.id] });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ error: 'ERR_NO_USER_FOUND' });
    expect(await t.db.select().from(chats).where(eq(chats.companyId, roles.companyId))).toHaveLength(before.length);
  });

  it('lets only the owner edit or delete; members get 403, others 404', async () => {
    const chat = await newChat('Dono só');
    const byMember = await call(roles.user, 'PUT', `/chats/${chat.id}`, { title: 'Tomado', users: [roles.user.user.id] });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    expect((await call(roles.user, 'DELETE', `/chats/${chat.id}`)).statusCode).toBe(403);
    expect((await call(outsider, 'DELETE', `/chats/${chat.id}`)).statusCode).toBe(404);
    expect((await call(roles.otherAdmin, 'PUT', `/chats/${chat.id}`, { title: 'Outra empresa', users: [roles.otherAdmin.user.id] })).statusCode).toBe(404);
    const [row] = await t.db.select().from(chats).where(eq(chats.id, chat.id));
    expect(row?.title).toBe('Dono só');

    const edited = await call(roles.admin, 'PUT', `/chats/${chat.id}`, { title: 'Renomeado', users: [outsider.user.id] });
    expect(edited.statusCode).toBe(200);
    expect((edited.json() as Chat).users.map((u) => u.userId).sort()).toEqual([roles.admin.user.id, outsider.user.id].sort());
    // The removed member no longer reads it.
    expect((await call(roles.user, 'GET', `/chats/${chat.id}/messages`)).statusCode).toBe(404);

    expect((await call(roles.admin, 'DELETE', `/chats/${chat.id}`)).statusCode).toBe(200);
    expect(await t.db.select().from(chats).where(eq(chats.id, chat.id))).toHaveLength(0);
  });

  it('counts unread messages per member and clears them on read', async () => {
    const chat = await newChat('Contagem', [roles.user.user.id, outsider.user.id]);
    for (const text of ['primeira', 'segunda']) {
      expect((await call(roles.admin, 'POST', `/chats/${chat.id}/messages`, { message: text })).statusCode).toBe(200);
    }
    const listed = ((await call(roles.user, 'GET', '/chats')).json() as ChatsPage).records.find((c) => c.id === chat.id)!;
    expect(listed.lastMessage).toBe('segunda');
    expect(unreadsOf(listed, roles.user.user.id)).toBe(2);
    expect(unreadsOf(listed, outsider.user.id)).toBe(2);
    expect(unreadsOf(listed, roles.admin.user.id)).toBe(0);

    // Another user's id in the body is refused; the caller's own clears only the caller's count.
    expect((await call(roles.user, 'POST', `/chats/${chat.id}/read`, { userId: outsider.user.id })).statusCode).toBe(403);
    const read = await call(roles.user, 'POST', `/chats/${chat.id}/read`, { userId: roles.user.user.id });
    expect(read.statusCode).toBe(200);
    expect(unreadsOf(read.json() as Chat, roles.user.user.id)).toBe(0);
    expect(unreadsOf(read.json() as Chat, outsider.user.id)).toBe(2);
    expect((await call(roles.otherAdmin, 'POST', `/chats/${chat.id}/read`, {})).statusCode).toBe(404);
  });

  it('pages messages newest first, each page oldest first; refuses blank messages and non-members', async () => {
    const chat = await newChat('Histórico');
    for (let i = 1; i <= 25; i += 1) await call(i % 2 ? roles.admin : roles.user, 'POST', `/chats/${chat.id}/messages`, { message: `m${i}` });
    const first = (await call(roles.user, 'GET', `/chats/${chat.id}/messages`)).json() as ChatMessagesPage;
    expect(first.records.map((m) => m.message)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 6}`));
    expect(first.hasMore).toBe(true);
    expect(first.records[0]).toMatchObject({ senderId: roles.user.user.id, sender: { id: roles.user.user.id } });
    const second = (await call(roles.user, 'GET', `/chats/${chat.id}/messages?pageNumber=2`)).json() as ChatMessagesPage;
    expect(second.records.map((m) => m.message)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(second.hasMore).toBe(false);

    const blank = await call(roles.user, 'POST', `/chats/${chat.id}/messages`, { message: '   ' });
    expect(blank.statusCode).toBe(400);
    expect((await call(outsider, 'POST', `/chats/${chat.id}/messages`, { message: 'intruso' })).statusCode).toBe(404);
    expect((await call(roles.otherAdmin, 'GET', `/chats/${chat.id}/messages`)).statusCode).toBe(404);
    expect(((await call(roles.user, 'GET', `/chats/${chat.id}/messages`)).json() as ChatMessagesPage).count).toBe(25);
  });

  it('delivers chat events to the members only, never to colleagues outside the chat or other companies', async () => {
    const member = await socketOf(roles.user);
    const outside = await socketOf(outsider);
    const otherCompany = await socketOf(roles.otherAdmin);
    const c = roles.companyId;
    const outsideList = collect<{ action: string }>(outside, `company-${c}-chat`);
    const outsideOwn = collect<{ action: string }>(outside, `company-${c}-chat-user-${outsider.user.id}`);
    const outsideHeard = () => [...outsideList, ...outsideOwn].map((p) => p.action).sort();
    const otherHeard = collect(otherCompany, `company-${c}-chat`);

    const created = nextEvent<{ action: string; record: Chat }>(member, `company-${c}-chat-user-${roles.user.user.id}`);
    const chat = await newChat('Ao vivo');
    expect(await created).toMatchObject({ action: 'create', record: { id: chat.id } });
    const outsideRoom = collect(outside, `company-${c}-chat-${chat.id}`);

    const inRoom = nextEvent<{ action: string; newMessage: ChatMessage; chat: Chat }>(member, `company-${c}-chat-${chat.id}`);
    const inList = nextEvent<{ action: string; chat: Chat }>(member, `company-${c}-chat`);
    await call(roles.admin, 'POST', `/chats/${chat.id}/messages`, { message: 'só para vocês' });
    expect(await inRoom).toMatchObject({ action: 'new-message', newMessage: { message: 'só para vocês', senderId: roles.admin.user.id } });
    const listed = await inList;
    expect(listed).toMatchObject({ action: 'new-message', chat: { id: chat.id, lastMessage: 'só para vocês' } });
    expect(unreadsOf(listed.chat, roles.user.user.id)).toBe(1);

    expect(outsideHeard()).toEqual([]);

    // Taken out of the chat: the member hears it left, then hears nothing more of it.
    const left = nextEvent<{ action: string; id: number }>(member, `company-${c}-chat-user-${roles.user.user.id}`);
    await call(roles.admin, 'PUT', `/chats/${chat.id}`, { title: 'Ao vivo', users: [outsider.user.id] });
    expect(await left).toEqual({ action: 'delete', id: chat.id });
    const afterLeaving = collect(member, `company-${c}-chat-${chat.id}`);
    await call(roles.admin, 'DELETE', `/chats/${chat.id}`);
    await sleep(300);
    expect(afterLeaving).toHaveLength(0);
    expect(outsideRoom).toHaveLength(0);
    expect(otherHeard).toHaveLength(0);
    // The outsider, added by the edit, heard of the chat only from then on: its update (list and own channel), then the delete.
    expect(outsideHeard()).toEqual(['delete', 'update', 'update']);
  });

  it('answers 403 to a company whose plan lacks useInternalChat, and to no token 401', async () => {
    const [plan] = await t.db.insert(plans).values({ name: 'Sem chat', users: 5, connections: 1, queues: 1, useInternalChat: false }).returning();
    const c = await createCompanyWithAdmin(t.db, { planId: plan!.id });
    const admin = await login(t.app, c.email, c.password);
    const post = await call(admin, 'POST', '/chats', { title: 'Nada', users: [admin.user.id] });
    expect(post.statusCode).toBe(403);
    expect(post.json()).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED' });
    expect(await t.db.select().from(chats).where(eq(chats.companyId, c.company.id))).toHaveLength(0);
    expect((await call(admin, 'GET', '/chats')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/chats' })).statusCode).toBe(401);
  });
});
