import type { FileList, FileListPage, ListEventPayload } from '@balcao/contracts';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { multipart } from '../../../test/multipart.js';
import { bearer, createTestApp, nextEvent, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { openSocket, type Roles, rolesSuite } from '../../../test/roles.js';

let t: TestApp;
let roles: Roles;
let port: number;
const sockets = rolesSuite((suite) => ({ t, roles, port } = suite), () => createTestApp({ LOGIN_MAX_PER_IP: '10000', LOGIN_MAX_PER_EMAIL: '10000', UPLOAD_LIMIT_MB: '1' }));

const call = (who: LoggedIn, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(who.token), payload });
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d6a0a30000000049454e44ae426082', 'hex');
const PDF = Buffer.from('%PDF-1.4\n%fake\n');

function upload(who: LoggedIn, listId: number, parts: { id: number; name: string; type: string; data: Buffer; fileName: string }[], typeArch = 'fileList') {
  const form = multipart(
    { fileId: String(listId), typeArch, mediaType: parts.map((p) => p.type.split('/')[0]!), name: parts.map((p) => p.name), id: parts.map((p) => String(p.id)) },
    parts.map((p) => ({ field: 'files', name: p.fileName, type: p.type, data: p.data })),
  );
  return t.app.inject({ method: 'POST', url: `/files/uploadList/${listId}`, headers: { ...bearer(who.token), ...form.headers }, payload: form.payload });
}
const stored = (url: string) => t.app.ctx.storage.pathOf(roles.companyId, decodeURIComponent(url.split('/').pop()!));

describe('file lists', () => {
  let list: FileList;

  it('creates a list with options, tells the company, and pages it by name', async () => {
    const socket = await openSocket(port, roles.admin);
    sockets.push(socket);
    const heard = nextEvent<ListEventPayload<FileList>>(socket, `company-${roles.companyId}-file`);
    const res = await call(roles.admin, 'POST', '/files', { name: 'Catálogo', message: 'Veja nossos arquivos', options: [{ name: 'Tabela' }, { name: 'Foto' }], userId: 999 });
    expect(res.statusCode).toBe(200);
    list = res.json();
    expect(list).toMatchObject({ name: 'Catálogo', message: 'Veja nossos arquivos', userId: roles.admin.user.id });
    expect(list.options.map((o) => [o.name, o.path])).toEqual([['Tabela', null], ['Foto', null]]);
    expect(await heard).toEqual({ action: 'create', record: list });
    const page = (await call(roles.admin, 'GET', '/files/?searchParam=catál&companyId=1')).json() as FileListPage;
    expect(page).toMatchObject({ count: 1, hasMore: false });
    expect(page.files[0]?.options).toHaveLength(2);
  });

  it('uploads one file per option (type and size checked) and serves it', async () => {
    const [tabela, foto] = list.options;
    const heard = nextEvent<ListEventPayload<FileList>>(sockets[0]!, `company-${roles.companyId}-file`);
    const res = await upload(roles.admin, list.id, [
      { id: tabela!.id, name: 'Tabela', type: 'application/pdf', data: PDF, fileName: 'tabela.pdf' },
      { id: foto!.id, name: 'Foto', type: 'image/png', data: PNG, fileName: 'foto.png' },
    ]);
    expect(res.statusCode).toBe(200);
    list = res.json();
    expect(list.options.map((o) => o.mediaType)).toEqual(['application/pdf', 'image/png']);
    for (const o of list.options) expect(existsSync(stored(o.url!))).toBe(true);
    expect((await heard).action).toBe('update');
    const served = await t.app.inject({ method: 'GET', url: new URL(list.options[1]!.url!).pathname });
    expect(served.statusCode).toBe(200);

    const exe = await upload(roles.admin, list.id, [{ id: tabela!.id, name: 'x', type: 'application/x-msdownload', data: Buffer.from('MZ\x90\x00'), fileName: 'x.exe' }]);
    expect([exe.statusCode, exe.json().error]).toEqual([400, 'ERR_INVALID_MEDIA_TYPE']);
    const big = await upload(roles.admin, list.id, [{ id: tabela!.id, name: 'x', type: 'application/pdf', data: Buffer.alloc(2 * 1024 * 1024, 1), fileName: 'big.pdf' }]);
    expect([big.statusCode, big.json().error]).toEqual([413, 'ERR_FILE_TOO_LARGE']);
    expect((await upload(roles.admin, list.id, [{ id: 999_999, name: 'x', type: 'image/png', data: PNG, fileName: 'a.png' }])).statusCode).toBe(400);
    expect((await upload(roles.admin, list.id, [{ id: foto!.id, name: 'x', type: 'image/png', data: PNG, fileName: 'a.png' }], 'quickMessage')).statusCode).toBe(400);
    // Nothing changed by the refused uploads.
    expect(((await call(roles.admin, 'GET', `/files/${list.id}`)).json() as FileList).options.map((o) => o.path)).toEqual(list.options.map((o) => o.path));
  });

  it('edits: renames kept options, adds new ones, removes the rest with their files', async () => {
    const [tabela, foto] = list.options;
    const res = await call(roles.admin, 'PUT', `/files/${list.id}`, { name: 'Catálogo 2', message: 'Nova', options: [{ id: foto!.id, name: 'Foto nova' }, { name: 'Vídeo' }] });
    expect(res.statusCode).toBe(200);
    const after = res.json() as FileList;
    expect(after.options.map((o) => [o.id === foto!.id, o.name, o.path === foto!.path])).toEqual([
      [true, 'Foto nova', true],
      [false, 'Vídeo', false],
    ]);
    expect(existsSync(stored(tabela!.url!))).toBe(false);
    expect(existsSync(stored(foto!.url!))).toBe(true);
    const foreignOption = await call(roles.admin, 'PUT', `/files/${list.id}`, { name: 'Catálogo 2', message: 'Nova', options: [{ id: 999_999, name: 'x' }] });
    expect(foreignOption.statusCode).toBe(400);
    list = after;
  });

  it('validates: name at least 3 (nome muito curto), message required; a taken name is 409', async () => {
    const short = await call(roles.admin, 'POST', '/files', { name: 'ab', message: 'x' });
    expect(short.json()).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'name', message: 'nome muito curto' }] });
    expect((await call(roles.admin, 'POST', '/files', { name: 'Sem mensagem', message: '' })).json()).toMatchObject({ issues: [{ path: 'message', message: 'Obrigatório' }] });
    const taken = await call(roles.admin, 'POST', '/files', { name: 'Catálogo 2', message: 'x' });
    expect([taken.statusCode, taken.json().error]).toEqual([409, 'ERR_FILE_LIST_NAME_ALREADY_EXISTS']);
  });

  it('keeps other companies and plain users out', async () => {
    expect((await call(roles.user, 'GET', '/files')).statusCode).toBe(403);
    expect((await call(roles.user, 'POST', '/files', { name: 'Nope', message: 'x' })).statusCode).toBe(403);
    for (const [method, payload] of [['GET'], ['PUT', { name: 'Roubada', message: 'x' }], ['DELETE']] as const) {
      const res = await call(roles.otherAdmin, method, `/files/${list.id}`, payload);
      expect([res.statusCode, res.json().error]).toEqual([404, 'ERR_NO_FILE_LIST_FOUND']);
    }
    const foreignUpload = await upload(roles.otherAdmin, list.id, [{ id: list.options[0]!.id, name: 'x', type: 'image/png', data: PNG, fileName: 'a.png' }]);
    expect([foreignUpload.statusCode, foreignUpload.json().error]).toEqual([404, 'ERR_NO_FILE_LIST_FOUND']);
    expect(((await call(roles.otherAdmin, 'GET', '/files?searchParam=Cat')).json() as FileListPage).count).toBe(0);
  });

  it('deletes a list with its files, telling the company', async () => {
    const heard = nextEvent(sockets[0]!, `company-${roles.companyId}-file`);
    const kept = list.options.find((o) => o.url)!;
    expect((await call(roles.admin, 'DELETE', `/files/${list.id}`)).statusCode).toBe(200);
    expect(await heard).toEqual({ action: 'delete', id: list.id });
    expect(existsSync(stored(kept.url!))).toBe(false);
    expect((await call(roles.admin, 'GET', `/files/${list.id}`)).statusCode).toBe(404);
  });
});
