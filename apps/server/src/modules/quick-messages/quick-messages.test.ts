import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { quickMessagePageResponse, quickMessageSchema, type ListEventPayload, type QuickMessage } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quickMessages } from '../../db/schema/index.js';
import { bearer, collect, createTestApp, nextEvent, sleep, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { multipart } from '../../../test/multipart.js';
import { createPlainUser, listen, openSocket, setupRoles, type Roles } from '../../../test/roles.js';

let t: TestApp;
let roles: Roles;
let port: number;
const sockets: Socket[] = [];

beforeAll(async () => {
  // A 1 MB upload limit, so the size check is reachable with a small file.
  t = await createTestApp({ LOGIN_MAX_PER_IP: '10000', LOGIN_MAX_PER_EMAIL: '10000', UPLOAD_LIMIT_MB: '1' });
  roles = await setupRoles(t);
  port = await listen(t);
});

afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

const call = (who: LoggedIn, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(who.token), ...(payload ? { payload } : {}) });

function upload(who: LoggedIn, id: number, file: { name: string; type: string; data: Buffer }) {
  const body = multipart({ typeArch: 'quickMessage' }, { field: 'file', ...file });
  return t.app.inject({ method: 'POST', url: `/quick-messages/${id}/media-upload`, payload: body.payload, headers: { ...body.headers, ...bearer(who.token) } });
}

const png = () => sharp({ create: { width: 8, height: 8, channels: 3, background: '#ff8800' } }).png().toBuffer();
const companyFolder = () => join(t.app.ctx.config.dataDir, 'public', `company${roles.companyId}`);
const storedFiles = () => (existsSync(companyFolder()) ? readdirSync(companyFolder()) : []);
const pageOf = async (who: LoggedIn, search = '') =>
  quickMessagePageResponse.parse((await call(who, 'GET', `/quick-messages?searchParam=${encodeURIComponent(search)}`)).json());

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

describe('quick messages page and modal', () => {
  it('creates a reply owned by the caller, pages and searches it, edits and deletes it, announcing each change', async () => {
    const socket = await openSocket(port, roles.admin);
    sockets.push(socket);
    const created = nextEvent<ListEventPayload<QuickMessage>>(socket, `company-${roles.companyId}-quickemessage`);
    const res = await call(roles.user, 'POST', '/quick-messages', { shortcode: 'boasvindas', message: 'Seja bem-vindo!', geral: true, visao: true });
    expect(res.statusCode).toBe(200);
    const reply = quickMessageSchema.parse(res.json());
    expect(reply).toMatchObject({ shortcode: 'boasvindas', message: 'Seja bem-vindo!', geral: true, visao: true, status: true, userId: roles.user.user.id, isMedia: false });
    expect(await created).toEqual({ action: 'create', record: reply });

    expect(await pageOf(roles.user, 'bem-vindo')).toMatchObject({ count: 1, hasMore: false, records: [{ id: reply.id }] });
    expect((await call(roles.user, 'GET', `/quick-messages/${reply.id}`)).json()).toEqual(reply);

    const updated = nextEvent<ListEventPayload<QuickMessage>>(socket, `company-${roles.companyId}-quickemessage`);
    const put = await call(roles.user, 'PUT', `/quick-messages/${reply.id}`, { message: 'Olá de novo' });
    expect(put.json()).toMatchObject({ id: reply.id, shortcode: 'boasvindas', message: 'Olá de novo' });
    expect(await updated).toMatchObject({ action: 'update', record: { id: reply.id, message: 'Olá de novo' } });

    const deleted = nextEvent<ListEventPayload<QuickMessage>>(socket, `company-${roles.companyId}-quickemessage`);
    expect((await call(roles.user, 'DELETE', `/quick-messages/${reply.id}`)).statusCode).toBe(200);
    expect(await deleted).toEqual({ action: 'delete', id: reply.id });
    expect((await call(roles.user, 'GET', `/quick-messages/${reply.id}`)).json()).toEqual({ error: 'ERR_NO_QUICK_MESSAGE_FOUND' });
  });

  it("refuses a missing shortcode with 'Obrigatório' and a shortcode with spaces", async () => {
    const missing = await call(roles.user, 'POST', '/quick-messages', { message: 'Sem atalho' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'shortcode', message: 'Obrigatório' }] });
    const blank = await call(roles.user, 'POST', '/quick-messages', { shortcode: '   ', message: 'x' });
    expect(blank.json()).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'shortcode', message: 'Obrigatório' }] });
    expect((await call(roles.user, 'POST', '/quick-messages', { shortcode: 'dois termos' })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/quick-messages' })).statusCode).toBe(401);
  });
});

describe('quick message visibility (visao) and general edit (geral)', () => {
  it("shows a colleague's team-visible reply read-only, hides a private one, lets anyone edit a general one, and admins everything", async () => {
    const owner = await createPlainUser(t, roles.companyId);
    const mk = async (shortcode: string, geral: boolean, visao: boolean) =>
      quickMessageSchema.parse((await call(owner, 'POST', '/quick-messages', { shortcode, message: shortcode, geral, visao })).json());
    const readOnly = await mk('vis-equipe', false, true);
    const hidden = await mk('vis-privada', false, false);
    const general = await mk('vis-geral', true, false);

    // The page: the colleague sees the team-visible and the general reply, never the private one.
    expect((await pageOf(roles.user, 'vis-')).records.map((q) => q.shortcode)).toEqual(['vis-equipe', 'vis-geral']);
    expect((await pageOf(owner, 'vis-')).records.map((q) => q.shortcode)).toEqual(['vis-equipe', 'vis-geral', 'vis-privada']);
    expect((await pageOf(roles.admin, 'vis-')).records.map((q) => q.shortcode)).toEqual(['vis-equipe', 'vis-geral', 'vis-privada']);

    // Read-only for the colleague: 403 on every change, and nothing changes.
    expect((await call(roles.user, 'GET', `/quick-messages/${readOnly.id}`)).statusCode).toBe(200);
    for (const res of [
      await call(roles.user, 'PUT', `/quick-messages/${readOnly.id}`, { message: 'tomada' }),
      await call(roles.user, 'DELETE', `/quick-messages/${readOnly.id}`),
      await upload(roles.user, readOnly.id, { name: 'a.png', type: 'image/png', data: await png() }),
      await call(roles.user, 'DELETE', `/quick-messages/${readOnly.id}/media-upload`),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
    const [still] = await t.db.select().from(quickMessages).where(eq(quickMessages.id, readOnly.id));
    expect(still?.message).toBe('vis-equipe');

    // Private: not found for the colleague, whatever the call.
    for (const [method, url] of [
      ['GET', `/quick-messages/${hidden.id}`],
      ['PUT', `/quick-messages/${hidden.id}`],
      ['DELETE', `/quick-messages/${hidden.id}`],
    ] as const) {
      const res = await call(roles.user, method, url, method === 'PUT' ? { message: 'x' } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }

    // General: the colleague edits it; the admin edits the read-only one.
    expect((await call(roles.user, 'PUT', `/quick-messages/${general.id}`, { message: 'editada pelo colega' })).json()).toMatchObject({ message: 'editada pelo colega' });
    expect((await call(roles.admin, 'PUT', `/quick-messages/${readOnly.id}`, { message: 'editada pelo admin' })).json()).toMatchObject({ message: 'editada pelo admin' });
    expect((await call(roles.admin, 'PUT', `/quick-messages/${hidden.id}`, { message: 'vista pelo admin' })).statusCode).toBe(200);
  });

  it("announces a private reply only to its owner and the admins, and tells the team when one becomes private", async () => {
    const owner = await createPlainUser(t, roles.companyId);
    const [mine, colleague, admin] = [await openSocket(port, owner), await openSocket(port, roles.user), await openSocket(port, roles.admin)];
    sockets.push(mine, colleague, admin);
    const event = `company-${roles.companyId}-quickemessage`;
    const colleagueHeard = collect<ListEventPayload<QuickMessage>>(colleague, event);
    const ownerHeard = nextEvent<ListEventPayload<QuickMessage>>(mine, event);
    const adminHeard = nextEvent<ListEventPayload<QuickMessage>>(admin, event);
    const res = await call(owner, 'POST', '/quick-messages', { shortcode: 'segredo', message: 'só meu', visao: false });
    const secret = quickMessageSchema.parse(res.json());
    expect(await ownerHeard).toMatchObject({ action: 'create', record: { id: secret.id } });
    expect(await adminHeard).toMatchObject({ action: 'create', record: { id: secret.id } });
    await sleep(100);
    expect(colleagueHeard).toHaveLength(0);

    const shared = quickMessageSchema.parse((await call(owner, 'POST', '/quick-messages', { shortcode: 'compartilhada', visao: true })).json());
    await sleep(100);
    expect(colleagueHeard.map((e) => e.action)).toEqual(['create']);
    await call(owner, 'PUT', `/quick-messages/${shared.id}`, { visao: false });
    await sleep(100);
    expect(colleagueHeard.at(-1)).toEqual({ action: 'delete', id: shared.id });
    expect(JSON.stringify(colleagueHeard)).not.toContain('só meu');
  });
});

describe('quick message media', () => {
  it('attaches an image (replacing the previous file), serves it, and removes it', async () => {
    const reply = quickMessageSchema.parse((await call(roles.user, 'POST', '/quick-messages', { shortcode: 'cardapio', message: 'Nosso cardápio' })).json());
    const before = storedFiles().length;
    const first = await upload(roles.user, reply.id, { name: 'cardapio.png', type: 'image/png', data: await png() });
    expect(first.statusCode).toBe(200);
    const withMedia = quickMessageSchema.parse(first.json());
    expect(withMedia).toMatchObject({ isMedia: true, mediaName: 'cardapio.png' });
    expect(withMedia.mediaUrl).toMatch(new RegExp(`/public/company${roles.companyId}/[0-9a-f]{32}\\.png$`));
    const served = await t.app.inject({ method: 'GET', url: `/public/company${roles.companyId}/${withMedia.mediaPath}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');

    const second = quickMessageSchema.parse((await upload(roles.user, reply.id, { name: 'novo.png', type: 'image/png', data: await png() })).json());
    expect(second.mediaName).toBe('novo.png');
    expect(storedFiles()).not.toContain(withMedia.mediaPath);
    expect(storedFiles()).toHaveLength(before + 1);

    const removed = await call(roles.user, 'DELETE', `/quick-messages/${reply.id}/media-upload`);
    expect(removed.json()).toMatchObject({ isMedia: false, mediaPath: null, mediaName: null, message: 'Nosso cardápio' });
    expect(storedFiles()).toHaveLength(before);
  });

  it('refuses an executable, active content, a file over the upload limit and a form without a file, storing nothing', async () => {
    const reply = quickMessageSchema.parse((await call(roles.user, 'POST', '/quick-messages', { shortcode: 'recusas' })).json());
    const before = storedFiles().length;
    const exe = await upload(roles.user, reply.id, { name: 'setup.exe', type: 'application/octet-stream', data: Buffer.from('MZ\x90\x00rest') });
    expect(exe.statusCode).toBe(400);
    expect(exe.json()).toMatchObject({ error: 'ERR_INVALID_MEDIA_TYPE' });
    const html = await upload(roles.user, reply.id, { name: 'x.html', type: 'text/html', data: Buffer.from('<script>alert(1)</script>') });
    expect(html.json()).toMatchObject({ error: 'ERR_INVALID_MEDIA_TYPE' });
    const big = await upload(roles.user, reply.id, { name: 'grande.pdf', type: 'application/pdf', data: Buffer.alloc(1024 * 1024 + 10, 1) });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ error: 'ERR_FILE_TOO_LARGE' });
    const body = multipart({ typeArch: 'quickMessage' });
    const empty = await t.app.inject({ method: 'POST', url: `/quick-messages/${reply.id}/media-upload`, payload: body.payload, headers: { ...body.headers, ...bearer(roles.user.token) } });
    expect(empty.statusCode).toBe(400);
    expect(storedFiles()).toHaveLength(before);
    const [row] = await t.db.select().from(quickMessages).where(eq(quickMessages.id, reply.id));
    expect(row?.mediaPath).toBeNull();
  });
});

describe('other companies', () => {
  it("answers 404 for another company's reply on every endpoint and changes nothing", async () => {
    const theirs = quickMessageSchema.parse(
      (await call(roles.otherAdmin, 'POST', '/quick-messages', { shortcode: 'alheia', message: 'deles', geral: true, visao: true })).json(),
    );
    const attempts: [method: 'GET' | 'PUT' | 'DELETE', url: string, body?: object][] = [
      ['GET', `/quick-messages/${theirs.id}`],
      ['PUT', `/quick-messages/${theirs.id}`, { message: 'roubada' }],
      ['DELETE', `/quick-messages/${theirs.id}`],
      ['DELETE', `/quick-messages/${theirs.id}/media-upload`],
    ];
    for (const [method, url, body] of attempts) {
      const res = await call(roles.admin, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_QUICK_MESSAGE_FOUND' });
    }
    expect((await upload(roles.admin, theirs.id, { name: 'a.png', type: 'image/png', data: await png() })).statusCode).toBe(404);
    expect((await pageOf(roles.admin, 'alheia')).records).toEqual([]);
    const [row] = await t.db.select().from(quickMessages).where(eq(quickMessages.id, theirs.id));
    expect(row).toMatchObject({ message: 'deles', mediaPath: null });
  });
});
