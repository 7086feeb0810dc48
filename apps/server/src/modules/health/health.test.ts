import { createServer, type Server } from 'node:net';
import pino from 'pino';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../db/embedded.js';
import { startJobs, stopJobs } from '../../jobs/boss.js';
import { createTestApp, createTestDatabase, type TestApp } from '../../../test/helpers.js';

const quiet = pino({ level: 'silent' });
const opened: TestApp[] = [];
const bosses: PgBoss[] = [];

/** An app with a started job queue on its own database, as main builds it. */
async function readyApp(env: Record<string, string> = {}): Promise<{ t: TestApp; boss: PgBoss }> {
  const database = await createTestDatabase();
  const boss = await startJobs(database, quiet);
  bosses.push(boss);
  const t = await createTestApp({ RATE_LIMIT_MAX: '2', ...env }, { boss }, database);
  opened.push(t);
  return { t, boss };
}

/** A Redis stand-in at the network boundary: answers `+PONG` to PING (and `+OK` to AUTH). */
let redis: Server;
let redisPort: number;
beforeAll(async () => {
  redis = createServer((socket) => socket.on('data', (c: Buffer) => socket.write(c.toString().includes('PING') ? '+PONG\r\n' : '+OK\r\n')));
  await new Promise<void>((r) => redis.listen(0, '127.0.0.1', r));
  redisPort = (redis.address() as { port: number }).port;
});

afterAll(async () => {
  for (const boss of bosses) await stopJobs(boss).catch(() => undefined);
  for (const t of opened) await t.close().catch(() => undefined);
  await new Promise((r) => redis.close(r));
});

const get = (t: TestApp, url: string) => t.app.inject({ method: 'GET', url });

describe('GET /healthz and /readyz (issue 19 point 1)', () => {
  it('answers healthz without a token, outside the rate limit', async () => {
    const { t } = await readyApp();
    for (let i = 0; i < 5; i++) {
      const res = await get(t, '/healthz');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
    }
  });

  it('is ready with the database and the job queue up, Redis skipped when not configured, never rate limited', async () => {
    const { t } = await readyApp();
    for (let i = 0; i < 5; i++) {
      const res = await get(t, '/readyz');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ready', checks: { draining: 'ok', database: 'ok', jobs: 'ok', redis: 'skipped' }, failing: [] });
    }
  });

  it('names the job queue when it is not running, and answers 503', async () => {
    const t = await createTestApp();
    opened.push(t);
    const res = await get(t, '/readyz');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'not_ready', failing: ['jobs'] });
    // A stopped queue counts as not running.
    const { t: other, boss } = await readyApp();
    await stopJobs(boss);
    expect((await get(other, '/readyz')).json()).toMatchObject({ status: 'not_ready', failing: ['jobs'] });
  });

  it('answers 503 at once when draining, naming it', async () => {
    const { t } = await readyApp();
    t.app.ctx.readiness.startDraining();
    const res = await get(t, '/readyz');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'not_ready', checks: { draining: 'fail', database: 'ok' }, failing: ['draining'] });
    // Liveness is not readiness: the draining process is still alive.
    expect((await get(t, '/healthz')).statusCode).toBe(200);
  });

  it('names the database when the pool cannot answer', async () => {
    const { t } = await readyApp();
    await t.pool.end();
    const res = await get(t, '/readyz');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'not_ready', checks: { database: 'fail' }, failing: ['database'] });
    opened.splice(opened.indexOf(t), 1);
    await t.app.close();
  });

  it('checks Redis when REDIS_URL is set: ok when it answers PING, named when it does not', async () => {
    const { t: up } = await readyApp({ REDIS_URL: `redis://:some-password@127.0.0.1:${redisPort}` });
    const ok = await get(up, '/readyz');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ checks: { redis: 'ok' }, failing: [] });

    const { t: down } = await readyApp({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    const res = await get(down, '/readyz');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'not_ready', checks: { redis: 'fail' }, failing: ['redis'] });
  });

  it('documents both probes in OpenAPI', async () => {
    const { t } = await readyApp();
    const doc = (await get(t, '/docs/json')).json<{ paths: Record<string, { get?: { responses: Record<string, unknown> } }> }>();
    expect(doc.paths['/healthz']?.get?.responses).toHaveProperty('200');
    expect(Object.keys(doc.paths['/readyz']?.get?.responses ?? {})).toEqual(expect.arrayContaining(['200', '503']));
  });
});
