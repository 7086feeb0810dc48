import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJobs, stopJobs } from '../jobs/boss.js';
import { eventually } from '../../test/connections.js';
import { PNG } from '../../test/fakes/graph-server.js';
import { FakeS3, s3Env } from '../../test/fakes/s3-server.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, createCompanyWithAdmin, createTestApp, login, type TestApp } from '../../test/helpers.js';
import { COMPANY_MEDIA_DELETE_JOB, queueCompanyMediaDeletion, registerCompanyMediaDeletionJob } from './deletion.js';

/**
 * Issue 19: deleting a company queues a durable pg-boss job, in the delete's transaction,
 * that removes its objects and folder; the job retries with backoff while the store fails
 * and survives the node stopping (another job runner, the "next start", finishes it).
 */

const BUCKET = 'balcao-media';
let s3: FakeS3;
let t: TestApp;
let boss: PgBoss | undefined;
let superToken: string;

async function startRunner(): Promise<void> {
  boss = await startJobs(t.pool.options.connectionString!, t.app.log);
  t.app.ctx.boss = boss;
  await registerCompanyMediaDeletionJob(boss, t.app.ctx);
}

async function stopRunner(): Promise<void> {
  t.app.ctx.boss = undefined;
  if (boss) await stopJobs(boss);
  boss = undefined;
}

beforeAll(async () => {
  s3 = await FakeS3.start();
  t = await createTestApp({
    ...s3Env(s3, BUCKET),
    MEDIA_DELETE_RETRY_SECONDS: '1',
  });
  await startRunner();
  superToken = (await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD)).token;
});
afterAll(async () => {
  await stopRunner();
  await t?.close();
  await s3?.close();
});

const jobsOf = async (companyId: number) =>
  (
    await t.pool.query<{ state: string; retry_count: number }>(`select state, retry_count from pgboss.job where name = $1 and data->>'companyId' = $2`, [
      COMPANY_MEDIA_DELETE_JOB,
      String(companyId),
    ])
  ).rows;
const keysOf = (companyId: number) => [...s3.objects.keys()].filter((k) => k.startsWith(`/${BUCKET}/company${companyId}/`));
const deleteCompany = (id: number) => t.app.inject({ method: 'DELETE', url: `/companies/${id}`, headers: bearer(superToken) });

describe('company media deletion job', () => {
  it('retries while the bucket fails, survives the runner stopping, then removes every object and the folder', async () => {
    const { company } = await createCompanyWithAdmin(t.db);
    const { company: other } = await createCompanyWithAdmin(t.db);
    // Pages of two keys: the removal lists page after page, deleting each page in one request.
    s3.listPageSize = 2;
    const own = ['a.png', 'b.png', 'c.pdf', 'contacts/contact-d.png', 'e.png'].map((name) => `company${company.id}/${name}`);
    for (const key of [...own, `company${other.id}/keep.png`]) {
      s3.objects.set(`/${BUCKET}/${key}`, { body: PNG, type: 'image/png' });
    }
    // A file written before the bucket was set lives in the node's folder.
    const folder = t.app.ctx.storage.companyDir(company.id);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'old.png'), PNG);

    s3.failing = true;
    expect((await deleteCompany(company.id)).statusCode).toBe(200);
    const retried = await eventually(async () => (await jobsOf(company.id)).find((j) => j.state === 'retry' && j.retry_count >= 1), 30_000);
    expect(retried).toBeDefined();
    expect(keysOf(company.id)).toHaveLength(own.length);

    // The node stops mid-way; the job is in the database, so the next runner finishes it.
    await stopRunner();
    s3.failing = false;
    await startRunner();
    await eventually(async () => (await jobsOf(company.id))[0]?.state === 'completed', 30_000);
    expect(keysOf(company.id)).toEqual([]);
    expect(existsSync(folder)).toBe(false);
    expect(keysOf(other.id)).toHaveLength(1);
    expect(await jobsOf(company.id)).toHaveLength(1);
    expect(s3.requests.filter((r) => r.method === 'POST').length).toBeGreaterThanOrEqual(3);
  }, 60_000);

  it('a node killed mid-way leaves the job active: once it expires, pg-boss maintenance retries it and it finishes', async () => {
    const { company } = await createCompanyWithAdmin(t.db);
    s3.objects.set(`/${BUCKET}/company${company.id}/left.png`, { body: PNG, type: 'image/png' });
    // A node with a job queue but no worker queues the job, then "dies" holding it.
    await stopRunner();
    const sender = await startJobs(t.pool.options.connectionString!, t.app.log);
    t.app.ctx.boss = sender;
    expect((await deleteCompany(company.id)).statusCode).toBe(200);
    t.app.ctx.boss = undefined;
    await stopJobs(sender);
    await t.pool.query(`update pgboss.job set state = 'active', started_on = now() - interval '10 minutes' where name = $1 and data->>'companyId' = $2`, [
      COMPANY_MEDIA_DELETE_JOB,
      String(company.id),
    ]);

    await startRunner();
    expect(keysOf(company.id)).toHaveLength(1);
    // What every node's pg-boss maintenance runs every 2 minutes.
    await boss!.expire();
    await eventually(async () => (await jobsOf(company.id))[0]?.state === 'completed', 30_000);
    expect(keysOf(company.id)).toEqual([]);
  }, 60_000);

  it('queues nothing when the delete does not happen', async () => {
    const missing = 987_654;
    expect((await deleteCompany(missing)).statusCode).toBe(404);
    expect(await jobsOf(missing)).toEqual([]);
  });

  it("is written by the caller's transaction: rolled back with it, kept when it commits", async () => {
    const [rolledBack, committed] = [424_242, 434_343];
    await expect(
      t.db.transaction(async (tx) => {
        await queueCompanyMediaDeletion(boss!, tx, 1, rolledBack);
        tx.rollback();
      }),
    ).rejects.toThrow();
    await t.db.transaction((tx) => queueCompanyMediaDeletion(boss!, tx, 1, committed));
    expect(await jobsOf(rolledBack)).toEqual([]);
    expect(await jobsOf(committed)).toHaveLength(1);
  });

  it('is refused to a company admin, who cannot delete even their own company', async () => {
    const own = await createCompanyWithAdmin(t.db);
    const admin = await login(t.app, own.email, own.password);
    s3.objects.set(`/${BUCKET}/company${own.company.id}/mine.png`, { body: PNG, type: 'image/png' });
    const res = await t.app.inject({ method: 'DELETE', url: `/companies/${own.company.id}`, headers: bearer(admin.token) });
    expect(res.statusCode).toBe(403);
    expect(await jobsOf(own.company.id)).toEqual([]);
    expect(keysOf(own.company.id)).toHaveLength(1);
  });
});
