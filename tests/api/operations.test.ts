import { parseTon } from '../../contract/money.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runAdmin } from '../../server/admin-cli.ts';
import { loadConfig } from '../../server/config.ts';
import { DatabaseLockedError, openDatabase, readLock } from '../../server/db/index.ts';
import { createTestDatabase, postgresUrl, RATE_LIMITS_OFF, startServer, type TestServer } from './harness.ts';

// Operations: the public URL and proxies from configuration only, health endpoints, one process per
// embedded database (a second one is refused clearly; the admin command goes through the running
// server), a dropped Postgres connection that does not end the process, and a shutdown that lets the
// request in flight finish.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A GET with any headers, Host included (fetch does not let a caller set Host). */
function get(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpGet(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString(),
        }),
      );
    });
    req.on('error', reject);
  });
}

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('configuration, not the request, names the app', { timeout: 120_000 }, () => {
  it('a forged Host or X-Forwarded-Host does not change the publicly cached TON Connect manifest', async () => {
    server = await startServer();
    const base = server.baseUrl;
    const manifest = async (headers: Record<string, string>) => {
      const res = await get(`${base}/tonconnect-manifest.json`, headers);
      expect(res.status).toBe(200);
      return {
        body: JSON.parse(res.text) as { url: string; iconUrl: string },
        cache: res.headers['cache-control'],
      };
    };
    const honest = await manifest({});
    expect(honest.cache).toContain('public');
    const forgeries: Record<string, string>[] = [
      { host: 'evil.example' },
      { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
      { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    ];
    for (const headers of forgeries) {
      const forged = await manifest(headers);
      expect(forged.body).toEqual(honest.body);
      expect(JSON.stringify(forged.body)).not.toContain('evil');
      const config = JSON.parse((await get(`${base}/api/config`, headers)).text) as {
        tonconnectManifestUrl: string;
      };
      expect(config.tonconnectManifestUrl).not.toContain('evil');
    }
    await server.close();

    server = await startServer({ env: { PUBLIC_URL: 'https://app.example/' } });
    const res = await get(`${server.baseUrl}/tonconnect-manifest.json`, { host: 'evil.example' });
    expect(JSON.parse(res.text)).toEqual({
      url: 'https://app.example',
      name: 'Giftcases',
      iconUrl: 'https://app.example/assets/icon-180.png',
    });
    const config = await get(`${server.baseUrl}/api/config`, { 'x-forwarded-host': 'evil.example' });
    expect(JSON.parse(config.text)).toMatchObject({
      tonconnectManifestUrl: 'https://app.example/tonconnect-manifest.json',
    });
  });

  it('refuses a malformed PUBLIC_URL or TRUST_PROXY at start', () => {
    expect(() => loadConfig({ PUBLIC_URL: 'not a url' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example' })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({}).trustProxy).toBe(false);
  });

  it('answers liveness and readiness (the database answers)', async () => {
    server = await startServer();
    const live = await server.call('GET', '/health/live');
    expect(live).toEqual({ status: 200, body: { ok: true } });
    const ready = await server.call('GET', '/health/ready');
    expect(ready).toEqual({ status: 200, body: { ok: true, db: server.built.ctx.database.kind } });
  });
});

// ── processes ────────────────────────────────────────────────────────────────

interface ServerProcess {
  child: ChildProcess;
  output: string[];
  baseUrl: string;
  exited: Promise<number | null>;
}

const PORTS = { first: 8846, second: 8847, postgres: 8848 };

/** `npm start`'s server (server/main.ts) as its own process; resolves once it answers, or once it exits. */
async function spawnServer(env: NodeJS.ProcessEnv, port: number, waitUntilUp = true): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: process.cwd(),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      TMPDIR: process.env.TMPDIR ?? tmpdir(),
      PORT: String(port),
      HOST: '127.0.0.1',
      CLIENT_DIR: '/nonexistent',
      LOG_LEVEL: 'warn',
      ...RATE_LIMITS_OFF,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (d: Buffer) => output.push(String(d)));
  child.stderr?.on('data', (d: Buffer) => output.push(String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const proc = { child, output, baseUrl, exited };
  if (!waitUntilUp) return proc;
  // generous: a loaded machine can take a minute or more to compile and start the server
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited: ${output.join('')}`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return proc;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not start: ${output.join('')}`);
}

const running: ChildProcess[] = [];
const folders: string[] = [];
afterAll(() => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'giftcases-ops-'));
  folders.push(dir);
  return dir;
}

describe('one process per embedded database', { timeout: 120_000 }, () => {
  it('a second open of a folder is refused with a clear error; a stale lock is taken over', async () => {
    const dir = join(tempDataDir(), 'pglite');
    const first = await openDatabase({ databaseUrl: null, pgliteDir: dir });
    try {
      const second = openDatabase({ databaseUrl: null, pgliteDir: dir });
      await expect(second).rejects.toBeInstanceOf(DatabaseLockedError);
      await expect(second).rejects.toThrow(/cannot be opened: this process already has it open/);
      expect(readLock(`${dir}.lock`)).toMatchObject({ pid: process.pid, hostname: hostname() });
    } finally {
      await first.close();
    }
    expect(existsSync(`${dir}.lock`), 'closing lets go').toBe(false);

    // a lock left by a process that is gone (killed) does not block
    const gone = spawn(process.execPath, ['-e', '0']);
    const pid = gone.pid!;
    await new Promise((resolve) => gone.on('exit', resolve));
    writeFileSync(`${dir}.lock`, JSON.stringify({ pid, hostname: hostname(), startedAt: 'earlier' }));
    const again = await openDatabase({ databaseUrl: null, pgliteDir: dir });
    expect(readLock(`${dir}.lock`)?.pid).toBe(process.pid);
    await again.close();
  });

  it(
    'a second server process on the same folder exits with a clear error; the admin command goes through the running one; SIGTERM lets the request in flight finish',
    { timeout: 400_000 },
    async () => {
      const dataDir = tempDataDir();
      const adminKey = `key-${randomBytes(12).toString('hex')}`;
      // info level: the test waits for the server's "incoming request" line before it sends SIGTERM
      const first = await spawnServer(
        { DATA_DIR: dataDir, ADMIN_KEY: adminKey, LOG_LEVEL: 'info' },
        PORTS.first,
      );
      running.push(first.child);

      const second = await spawnServer({ DATA_DIR: dataDir }, PORTS.second, false);
      running.push(second.child);
      expect(await second.exited).toBe(1);
      const said = second.output.join('');
      expect(said).toMatch(/in use by process \d+/);
      expect(said).toContain('DATABASE_URL');
      expect(said).not.toMatch(/\n\s+at /); // no stack trace
      expect((await fetch(`${first.baseUrl}/api/health/ready`)).status).toBe(200);

      // the admin command: through the running server with its key, refused plainly without one
      const lines: string[] = [];
      const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
      const config = loadConfig({ DATA_DIR: dataDir, ADMIN_KEY: adminKey });
      expect(await runAdmin(['withdrawals', 'list'], config, io)).toBe(0);
      expect(lines.join('\n')).toContain(`through the running server at http://127.0.0.1:${PORTS.first}`);
      expect(lines.join('\n')).toContain('No pending withdrawals.');
      lines.length = 0;
      expect(await runAdmin(['withdrawals', 'fail', '12345'], config, io)).toBe(1);
      expect(lines.join('\n')).toContain('WITHDRAWAL_NOT_FOUND');
      lines.length = 0;
      expect(await runAdmin(['withdrawals', 'list'], loadConfig({ DATA_DIR: dataDir }), io)).toBe(1);
      expect(lines.join('\n')).toMatch(/holds the embedded database.*ADMIN_KEY is not set/s);

      // graceful shutdown: an opening whose body is still arriving when SIGTERM comes is finished
      const launch = (await (await fetch(`${first.baseUrl}/api/dev/launch-data`)).json()) as {
        initData: string;
      };
      const login = await fetch(`${first.baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ initData: launch.initData }),
      });
      const { token, user } = (await login.json()) as { token: string; user: { balance: string } };
      const socket = connect(PORTS.first, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      const answered = new Promise<string>((resolve) =>
        socket.on('close', () => resolve(Buffer.concat(chunks).toString())),
      );
      const body = JSON.stringify({ caseId: 'starter' });
      socket.write(
        `POST /api/cases/open HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n` +
          body.slice(0, 5),
      );
      // SIGTERM only once the server has taken the request in (its headers parsed and logged): a request
      // still unread in the kernel's queue when the server stops listening is not "in flight" and is dropped
      // (that was this test's old flake on a loaded machine, where 300 ms was not always enough to read it)
      const seen = Date.now() + 60_000;
      while (!first.output.join('').includes('"url":"/api/cases/open"') && Date.now() < seen) await sleep(50);
      expect(first.output.join(''), 'the server read the request').toContain('"url":"/api/cases/open"');
      first.child.kill('SIGTERM');
      await sleep(500);
      // stopping: no new connections
      await expect(fetch(`${first.baseUrl}/api/health/live`)).rejects.toThrow();
      expect(first.child.exitCode, 'still finishing the request').toBe(null);
      // the rest of the body, without half-closing: Node answers nothing to a client that sends FIN before
      // the answer (its HTTP server does not allow half-open sockets), shutdown or not; the server closes
      // this connection itself after answering (Connection: close)
      socket.write(body.slice(5));
      const text = await answered;
      expect(text).toMatch(/^HTTP\/1\.1 200/);
      const opened = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { balance: string };
      expect(parseTon(opened.balance)).toBeLessThan(parseTon(user.balance));
      expect(await first.exited).toBe(0);
      expect(existsSync(join(dataDir, 'pglite.lock')), 'the lock is let go').toBe(false);

      // the opening was committed: the next process sees it
      const reopened = await openDatabase({ databaseUrl: null, pgliteDir: join(dataDir, 'pglite') });
      try {
        const count = await reopened.db
          .selectFrom('openings')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow();
        expect(Number(count.n)).toBe(1);
      } finally {
        await reopened.close();
      }
    },
  );
});

describe.skipIf(!postgresUrl)('Postgres connections', { timeout: 120_000 }, () => {
  it('the pool keeps to its size, bounds the wait for a connection and a statement, and a busy pool answers 503', async () => {
    // DB_POOL_MAX, DB_CONNECTION_TIMEOUT_MS and DB_STATEMENT_TIMEOUT_MS reach the pool as these settings
    const test = await createTestDatabase(postgresUrl, {
      max: 2,
      connectionTimeoutMs: 300,
      statementTimeoutMs: 1500,
    });
    const server = await startServer({ database: test.database });
    try {
      const db = test.database.db;
      const token = await server.login({ id: 950_001, first_name: 'Pool' });

      // five slow statements at once: two get the two connections, three give up waiting after 300 ms
      const slow = await Promise.allSettled(
        Array.from({ length: 5 }, () => sql`SELECT pg_sleep(0.8)`.execute(db)),
      );
      expect(slow.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
      for (const r of slow.filter((x): x is PromiseRejectedResult => x.status === 'rejected'))
        expect(String((r.reason as Error).message)).toBe('timeout exceeded when trying to connect');

      // the API answers a request that found no connection with 503 SERVICE_BUSY and Retry-After
      const holding = [sql`SELECT pg_sleep(1)`.execute(db), sql`SELECT pg_sleep(1)`.execute(db)];
      await sleep(150);
      const busy = await fetch(`${server.baseUrl}/api/fairness`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(busy.status).toBe(503);
      expect(busy.headers.get('retry-after')).toBe('1');
      expect(await busy.json()).toMatchObject({ statusCode: 503, code: 'SERVICE_BUSY' });
      await Promise.all(holding);
      expect(
        (await fetch(`${server.baseUrl}/api/fairness`, { headers: { authorization: `Bearer ${token}` } }))
          .status,
      ).toBe(200);

      // a statement over the limit is cancelled by the server (57014) instead of running on
      await expect(sql`SELECT pg_sleep(3)`.execute(db)).rejects.toMatchObject({ code: '57014' });
    } finally {
      await server.close();
      await test.drop();
    }
  });

  it(
    'a dropped connection (pg_terminate_backend) does not end the process; it serves on',
    { timeout: 300_000 },
    async () => {
      const name = `giftcases_ops_${Date.now()}_${randomBytes(3).toString('hex')}`;
      const admin = new pg.Client({ connectionString: postgresUrl! });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(postgresUrl!);
      url.pathname = `/${name}`;
      try {
        const proc = await spawnServer({ DATABASE_URL: url.toString(), DB_POOL_MAX: '4' }, PORTS.postgres);
        running.push(proc.child);
        // fill the pool with idle connections
        const reads = await Promise.all(Array.from({ length: 8 }, () => fetch(`${proc.baseUrl}/api/cases`)));
        expect(reads.every((r) => r.status === 200)).toBe(true);
        const { rows } = await admin.query<{ n: string }>(
          'SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE datname = $1',
          [name],
        );
        expect(Number(rows[0]!.n)).toBeGreaterThan(1); // pooled connections and the LISTEN one
        await sleep(1500);
        expect(proc.child.exitCode, proc.output.join('')).toBe(null);
        let served = 0;
        for (let i = 0; i < 20 && served !== 200; i++) {
          served = (await fetch(`${proc.baseUrl}/api/cases`)).status;
          if (served !== 200) await sleep(250);
        }
        expect(served).toBe(200);
        expect((await fetch(`${proc.baseUrl}/api/health/ready`)).status).toBe(200);
        expect(proc.output.join('')).toContain('an idle connection was lost');
        proc.child.kill('SIGTERM');
        expect(await proc.exited).toBe(0);
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      }
    },
  );
});
