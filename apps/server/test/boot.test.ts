import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, isAlive, readPostmasterPid } from '../src/db/embedded.js';
import { connectSocket, nextEvent, sleep } from './helpers.js';

const SERVER_DIR = resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(join(tmpdir(), 'balcao-boot-'));
const pgdata = join(dataDir, 'postgres');
const children: ChildProcess[] = [];
const postgresPids = new Set<number>();

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startProduct(port: number): Running {
  // `node --import tsx` (not npx): the pid we kill is the product itself.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      WEB_PORT: '0',
      SERVE_WEB: 'false',
      ADMIN_EMAIL: 'boss@boot.test',
      ADMIN_PASSWORD: 'boot-password-1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, output: () => out, exited };
}

async function waitForHealth(port: number, run: Running, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (run.child.exitCode !== null) throw new Error(`product exited early:\n${run.output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`no /health within ${ms} ms:\n${run.output()}`);
}

async function loginToken(port: number): Promise<{ token: string; user: { id: number; companyId: number } }> {
  const res = await fetch(`http://127.0.0.1:${port}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'boss@boot.test', password: 'boot-password-1' }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { token: string; user: { id: number; companyId: number } };
}

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.pid) c.kill('SIGKILL');
  for (const pid of postgresPids) if (isAlive(pid)) process.kill(pid, 'SIGQUIT');
  await sleep(300);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the real product', () => {
  it('boots, survives kill -9 (orphaned PostgreSQL), keeps data, and shuts down cleanly', { timeout: 150_000 }, async () => {
    const port = await freePort();

    // First boot.
    const first = startProduct(port);
    await waitForHealth(port, first);
    expect(first.output()).toContain('boss@boot.test');
    expect(first.output()).not.toContain('Generated password');
    const { token } = await loginToken(port);
    const put = await fetch(`http://127.0.0.1:${port}/settings/appName`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ value: 'Boot Test Co' }),
    });
    expect(put.status).toBe(200);

    const orphan = readPostmasterPid(pgdata);
    expect(orphan).toBeDefined();
    postgresPids.add(orphan!);

    // kill -9: Node dies, its PostgreSQL server stays behind.
    first.child.kill('SIGKILL');
    await first.exited;
    expect(isAlive(orphan!)).toBe(true);

    // Second boot: the orphan is handled, the data is still there.
    const second = startProduct(port);
    await waitForHealth(port, second);
    const boss = await loginToken(port);
    const appName = await fetch(`http://127.0.0.1:${port}/public-settings/appName`);
    expect(await appName.json()).toBe('Boot Test Co');
    const current = readPostmasterPid(pgdata);
    expect(current).toBeDefined();
    postgresPids.add(current!);
    // We stop the orphan cleanly and start a fresh server (see docs/operations.md).
    expect(current).not.toBe(orphan);
    expect(isAlive(orphan!)).toBe(false);

    // SIGTERM with agents connected: their sockets close before the pool ends, so their
    // disconnect handlers (marking them offline) never query an ended pool.
    const agents = Array.from({ length: 8 }, () => connectSocket(port, boss.user.companyId, { userId: String(boss.user.id), token: `Bearer ${boss.token}` }));
    await Promise.all(agents.map((s) => nextEvent(s, 'connect')));
    await sleep(300);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    for (const s of agents) s.close();
    expect(second.output()).not.toContain('Cannot use a pool after calling end');
    expect(second.output()).not.toContain('could not update online status');
    expect(isAlive(current!)).toBe(false);
    expect(existsSync(join(pgdata, 'postmaster.pid'))).toBe(false);
  });
});
