import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config.js';
import { precompressDir } from '../../../web/vite-precompress.js';
import { buildWebApp, runtimeConfigScript } from './web.js';

const logger = pino({ level: 'silent' });

describe('web app server', () => {
  it('serves runtime config, assets with long cache, and index.html as SPA fallback', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'balcao-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Balcão</title>');
    writeFileSync(join(dist, 'assets', 'app-123.js'), 'console.log(1)');
    const config = { ...parseConfig({ API_URL: 'https://api.example.com', FACEBOOK_APP_ID: '123456', SUPPORT_WHATSAPP: '+55 11 99999-0000'.replace(/[ -]/g, '') }), webDist: dist };
    const web = await buildWebApp(config, logger);

    const rc = await web.inject({ method: 'GET', url: '/runtime-config.js' });
    expect(rc.headers['content-type']).toMatch(/^application\/javascript/);
    expect(rc.headers['cache-control']).toBe('no-cache');
    expect(rc.body).toBe('window.__BALCAO__ = {"apiUrl":"https://api.example.com","facebookAppId":"123456","metaConfigured":false,"supportWhatsapp":"5511999990000"};\n');
    const meta = { ...config, meta: { ...config.meta, appSecret: 'secret' } };
    expect(runtimeConfigScript(meta)).toContain('"metaConfigured":true');
    expect(runtimeConfigScript(meta)).not.toContain('secret');

    const asset = await web.inject({ method: 'GET', url: '/assets/app-123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');

    for (const url of ['/', '/tickets/abc', '/login']) {
      const page = await web.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<title>Balcão</title>');
      expect(page.headers['cache-control']).toBe('no-cache');
    }
    expect((await web.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
    await web.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('explains how to build when dist is missing', async () => {
    const config = { ...parseConfig({}), webDist: join(tmpdir(), 'no-such-dist-balcao') };
    const web = await buildWebApp(config, logger);
    const res = await web.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build');
    expect((await web.inject({ method: 'GET', url: '/runtime-config.js' })).statusCode).toBe(200);
    await web.close();
  });

  it('sends the precompressed brotli or gzip copy the browser accepts, immutable for hashed assets', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'balcao-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Balcão</title>');
    const js = `console.log(${JSON.stringify('x'.repeat(5000))});`;
    writeFileSync(join(dist, 'assets', 'app-123.js'), js);
    precompressDir(dist);
    const web = await buildWebApp({ ...parseConfig({}), webDist: dist }, logger);

    const br = await web.inject({ method: 'GET', url: '/assets/app-123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(js.length / 10);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(js);

    const gz = await web.inject({ method: 'GET', url: '/assets/app-123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(js);

    const plain = await web.inject({ method: 'GET', url: '/assets/app-123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(js);

    const index = await web.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'br' } });
    expect(index.headers['cache-control']).toBe('no-cache');
    await web.close();
    rmSync(dist, { recursive: true, force: true });
  });
});
