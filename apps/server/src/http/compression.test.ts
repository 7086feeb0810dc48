import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, createTestApp, login, type TestApp } from '../../test/helpers.js';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD)).token;
  // Queues carry their week of hours: two of them already make a list above 1 KB.
  for (const [name, color] of [['Vendas', '#112233'], ['Suporte', '#445566']]) {
    const res = await t.app.inject({ method: 'POST', url: '/queue', headers: bearer(token), payload: { name, color } });
    expect(res.statusCode).toBe(200);
  }
});
afterAll(() => t.close());

describe('API compression', () => {
  it('compresses JSON answers above 1 KB with the encoding the client accepts, and leaves small ones alone', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/queue', headers: bearer(token) });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await t.app.inject({ method: 'GET', url: '/queue', headers: { ...bearer(token), 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gz = await t.app.inject({ method: 'GET', url: '/queue', headers: { ...bearer(token), 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());

    const small = await t.app.inject({ method: 'GET', url: '/health', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ status: 'ok' });
  });
});
