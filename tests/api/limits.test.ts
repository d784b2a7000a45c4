import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, type Socket as TcpSocket } from 'node:net';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../../server/app.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import {
  BOT_TOKEN,
  createTestDatabase,
  setBalance,
  signLaunchData,
  startServer,
  type TestServer,
} from './harness.ts';
import { parseTon } from '../../contract/money.ts';

// Limits and timeouts against a real server: a request trickled in byte by byte is cut off, a flood from
// one address or one player gets 429 (with Retry-After and a JSON body) while other clients are served,
// and sockets are held to a message size and rate without one log line per bad frame.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown> | null;
}

/** One HTTP request from a chosen local address (127.0.0.x are all this machine: different clients). */
function from(
  localAddress: string,
  server: TestServer,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const url = new URL(`${server.baseUrl}/api${path}`);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        localAddress,
        agent: false,
        headers: {
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: Record<string, unknown> | null;
          try {
            body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
          } catch {
            body = { nonJson: text };
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Signs in from an address and returns the token. */
async function signIn(localAddress: string, server: TestServer, id: number): Promise<string> {
  const res = await from(localAddress, server, 'POST', '/auth/login', {
    body: { initData: signLaunchData({ id, first_name: `P${id}` }) },
  });
  expect(res.status).toBe(200);
  return res.body!.token as string;
}

function expectRateLimited(res: Answer): void {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
  const retry = Number(res.headers['retry-after']);
  expect(retry).toBeGreaterThan(0);
  expect(res.body!.retryAfter).toBe(retry);
  expect(String(res.body!.message)).toMatch(/try again in \d+ second/);
}

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** Reads from a raw connection until it closes; resolves with what arrived and when it closed. */
function collect(socket: TcpSocket): Promise<{ text: string; closedAt: number }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), closedAt: Date.now() }));
  });
}

describe('timeouts', { timeout: 120_000 }, () => {
  it('cuts off a body sent one byte at a time with 408, while other clients are served', async () => {
    server = await startServer({ config: { requestTimeoutMs: 1500, headersTimeoutMs: 1000 } });
    const url = new URL(server.baseUrl);
    const socket = connect(Number(url.port), url.hostname);
    const done = collect(socket);
    const body = JSON.stringify({ initData: 'x'.repeat(200) });
    socket.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\n\r\n`,
    );
    const started = Date.now();
    let sent = 0;
    let cutOff = false;
    void done.then(() => (cutOff = true));
    // one byte every 100 ms would take 20 s; give up trickling after 8 s
    while (!cutOff && sent < body.length && Date.now() - started < 8000) {
      if (!socket.destroyed) socket.write(body[sent++]!);
      if (sent === 5) {
        // meanwhile another client is answered at once
        expect((await server.call('GET', '/health/live')).status).toBe(200);
      }
      await sleep(100);
    }
    expect(cutOff, 'the trickling connection was closed by the server').toBe(true);
    socket.destroy();
    const { text, closedAt } = await done;
    expect(closedAt - started).toBeLessThan(5000);
    expect(sent).toBeLessThan(body.length);
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({
      statusCode: 408,
      code: 'REQUEST_TIMEOUT',
    });
  });

  it('cuts off headers sent one line at a time (slowloris)', async () => {
    server = await startServer({ config: { requestTimeoutMs: 3000, headersTimeoutMs: 1000 } });
    const url = new URL(server.baseUrl);
    const socket = connect(Number(url.port), url.hostname);
    const done = collect(socket);
    socket.write(`GET /api/cases HTTP/1.1\r\nHost: ${url.host}\r\n`);
    const started = Date.now();
    let cutOff = false;
    void done.then(() => (cutOff = true));
    for (let i = 0; !cutOff && Date.now() - started < 8000; i++) {
      if (!socket.destroyed) socket.write(`X-Slow-${i}: ${i}\r\n`);
      await sleep(200);
    }
    expect(cutOff, 'the connection sending endless headers was closed').toBe(true);
    const { text } = await done;
    expect(text).toMatch(/^HTTP\/1\.1 408/);
  });
});

describe('rate limits', { timeout: 120_000 }, () => {
  it('a flood from one address gets 429 with Retry-After while other addresses are served', async () => {
    server = await startServer({
      env: { RATE_LIMIT_API_PER_ADDRESS: '40', RATE_LIMIT_WINDOW_MS: '60000' },
    });
    const s = server;
    const flood = await Promise.all(Array.from({ length: 120 }, () => from('127.0.0.1', s, 'GET', '/cases')));
    const ok = flood.filter((r) => r.status === 200).length;
    const limited = flood.filter((r) => r.status === 429);
    expect(ok).toBe(40);
    expect(limited).toHaveLength(80);
    for (const res of limited) expectRateLimited(res);
    expect(flood.every((r) => r.status === 200 || r.status === 429)).toBe(true);

    // another client is not held back by the flood
    const other = await from('127.0.0.2', s, 'GET', '/cases');
    expect(other.status).toBe(200);
    expect((await from('127.0.0.1', s, 'GET', '/cases')).status).toBe(429);
  });

  it('does not believe X-Forwarded-For unless TRUST_PROXY says so', async () => {
    server = await startServer({ env: { RATE_LIMIT_API_PER_ADDRESS: '5' } });
    const s = server;
    const answers = [];
    for (let i = 0; i < 8; i++) {
      answers.push(
        await from('127.0.0.1', s, 'GET', '/cases', { headers: { 'x-forwarded-for': `10.0.0.${i}` } }),
      );
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    await s.close();

    // behind a trusted proxy each forwarded address is its own client
    server = await startServer({ env: { RATE_LIMIT_API_PER_ADDRESS: '5', TRUST_PROXY: '127.0.0.1' } });
    const t = server;
    for (let i = 0; i < 8; i++) {
      const res = await from('127.0.0.1', t, 'GET', '/cases', {
        headers: { 'x-forwarded-for': `10.0.0.${i}` },
      });
      expect(res.status).toBe(200);
    }
  });

  it('limits sign-ins per address', async () => {
    server = await startServer({ env: { RATE_LIMIT_SIGNIN_PER_ADDRESS: '3' } });
    const s = server;
    for (let i = 0; i < 3; i++) await signIn('127.0.0.1', s, 61000 + i);
    const refused = await from('127.0.0.1', s, 'POST', '/auth/login', {
      body: { initData: signLaunchData({ id: 61010 }) },
    });
    expectRateLimited(refused);
    // another address signs in
    await signIn('127.0.0.2', s, 61011);
  });

  it('limits money requests per player, counting only checked tokens, while other players are served', async () => {
    server = await startServer({
      env: { RATE_LIMIT_MONEY_PER_PLAYER: '5', RATE_LIMIT_MONEY_PER_ADDRESS: '1000' },
    });
    const s = server;
    const alice = await signIn('127.0.0.1', s, 62001);
    const bob = await signIn('127.0.0.1', s, 62002);
    const seed = (token: string, i: number) =>
      from('127.0.0.1', s, 'PUT', '/fairness/client-seed', { token, body: { clientSeed: `seed-${i}` } });

    // forged tokens are refused (401) before they count against anyone
    for (let i = 0; i < 10; i++) {
      expect((await seed(`${alice.slice(0, -4)}AAAA`, i)).status).toBe(401);
    }
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push(await seed(alice, i));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    const limited = answers.filter((a) => a.status === 429);
    expect(limited).toHaveLength(7);
    for (const res of limited) expectRateLimited(res);
    // the same address, another player: served
    expect((await seed(bob, 99)).status).toBe(200);
    // a limited player still reads
    expect((await from('127.0.0.1', s, 'GET', '/fairness', { token: alice })).status).toBe(200);
  });

  it('counts battle seats (create, join, bots, cancel) as money requests of the player', async () => {
    server = await startServer({
      env: { RATE_LIMIT_MONEY_PER_PLAYER: '3', RATE_LIMIT_MONEY_PER_ADDRESS: '1000' },
    });
    const s = server;
    const alice = await signIn('127.0.0.1', s, 64001);
    const bob = await signIn('127.0.0.1', s, 64002);
    const start = 100_000_000_000n;
    await setBalance(s, 64001, start);
    await setBalance(s, 64002, start);
    const balance = async (token: string) =>
      parseTon((await from('127.0.0.1', s, 'GET', '/deposit/balance', { token })).body!.balance as string);

    const create = () =>
      from('127.0.0.1', s, 'POST', '/battles', {
        token: alice,
        body: { format: '1v1', mode: 'normal', caseIds: ['starter'] },
      });
    const created = [];
    for (let i = 0; i < 3; i++) created.push(await create());
    expect(created.map((r) => r.status)).toEqual([200, 200, 200]);
    const ids = created.map((r) => (r.body!.battle as { id: string }).id);
    const cost = parseTon((created[0]!.body!.battle as { cost: string }).cost);
    // the fourth seat bought within the window is refused before anything is debited
    expectRateLimited(await create());
    expectRateLimited(await from('127.0.0.1', s, 'POST', `/battles/${ids[0]}/bots`, { token: alice }));
    expectRateLimited(await from('127.0.0.1', s, 'POST', `/battles/${ids[0]}/cancel`, { token: alice }));
    expect(await balance(alice)).toBe(start - 3n * cost);

    // another player on the same address still joins, up to their own allowance
    for (const id of ids) {
      expect(
        (await from('127.0.0.1', s, 'POST', `/battles/${id}/join`, { token: bob, body: {} })).status,
      ).toBe(200);
    }
    expectRateLimited(
      await from('127.0.0.1', s, 'POST', `/battles/${ids[0]}/join`, { token: bob, body: {} }),
    );
    expect(await balance(bob)).toBe(start - 3n * cost);
    // reading the lobby is not a money request
    expect((await from('127.0.0.1', s, 'GET', '/battles', { token: bob })).status).toBe(200);
  });

  it('limits battle sockets per address and closes one that floods messages', async () => {
    server = await startServer({
      env: { RATE_LIMIT_SOCKETS_PER_ADDRESS: '2', SOCKET_MESSAGES_PER_10S: '5' },
    });
    const url = `${server.baseUrl.replace('http', 'ws')}/api/ws/battles`;
    const open: WsClient[] = [];
    try {
      for (let i = 0; i < 2; i++) open.push(await wsConnect(url));
      const refused = await wsRefused(url);
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'RATE_LIMITED' });

      const flooding = await wsConnect(url, '127.0.0.2');
      open.push(flooding);
      const pongs: unknown[] = [];
      flooding.on('message', (data) => {
        if (String(data).includes('pong')) pongs.push(data);
      });
      const code = closeCode(flooding);
      for (let i = 0; i < 100; i++) flooding.send(JSON.stringify({ type: 'ping' }));
      expect(await code).toBe(1008);
      expect(pongs.length).toBeLessThanOrEqual(5);
    } finally {
      for (const ws of open) ws.terminate();
    }
  });

  it('limits socket connections per address', async () => {
    server = await startServer({ env: { RATE_LIMIT_SOCKETS_PER_ADDRESS: '3' } });
    const url = `${server.baseUrl.replace('http', 'ws')}/api/ws/drops`;
    const open: WsClient[] = [];
    try {
      for (let i = 0; i < 3; i++) open.push(await wsConnect(url));
      const refused = await wsRefused(url);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'RATE_LIMITED' });
      // another address connects
      const other = await wsConnect(url, '127.0.0.2');
      open.push(other);
    } finally {
      for (const ws of open) ws.terminate();
    }
  });
});

// ── sockets ─────────────────────────────────────────────────────────────────

const requireCjs = createRequire(import.meta.url);

interface WsClient {
  on(event: 'message', listener: (data: Buffer) => void): void;
  on(event: 'close', listener: (code: number) => void): void;
  on(event: 'open' | 'error', listener: (arg?: unknown) => void): void;
  on(event: 'unexpected-response', listener: (req: unknown, res: IncomingMessage) => void): void;
  send(data: string | Buffer): void;
  terminate(): void;
  readonly readyState: number;
}
type WsConstructor = new (url: string, options?: { localAddress?: string; maxPayload?: number }) => WsClient;
const WS = requireCjs('ws') as WsConstructor;

function wsConnect(url: string, localAddress = '127.0.0.1'): Promise<WsClient> {
  return new Promise((resolve, reject) => {
    const ws = new WS(url, { localAddress });
    ws.on('open', () => resolve(ws));
    ws.on('error', (err) => reject(err as Error));
  });
}

function wsRefused(url: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WS(url, { localAddress: '127.0.0.1' });
    ws.on('open', () => reject(new Error('the socket was let in')));
    ws.on('error', () => undefined);
    ws.on('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
  });
}

function closeCode(ws: WsClient): Promise<number> {
  return new Promise((resolve) => ws.on('close', (code) => resolve(code)));
}

describe('sockets', { timeout: 120_000 }, () => {
  let built: BuiltApp | null = null;
  let dropDb: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await built?.close();
    await dropDb?.();
    built = null;
    dropDb = null;
  });

  /** A server whose log the test reads, line by line (JSON). */
  async function loggedServer(
    overrides: Partial<Config>,
  ): Promise<{ wsBase: string; httpBase: string; log: Record<string, unknown>[] }> {
    const db = await createTestDatabase();
    dropDb = db.drop;
    const log: Record<string, unknown>[] = [];
    const config = loadConfig(
      {
        BOT_TOKEN,
        JWT_SECRET: 'test-secret-test-secret-test-secret',
        LOG_LEVEL: 'info',
        TELEGRAM_BOT: 'off',
      },
      { port: 0, host: '127.0.0.1', clientDir: '/nonexistent', ...overrides },
    );
    built = await buildApp(config, {
      database: db.database,
      logStream: { write: (line: string) => void log.push(JSON.parse(line) as Record<string, unknown>) },
    });
    await built.app.listen({ port: 0, host: '127.0.0.1' });
    const address = built.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    return { wsBase: `ws://127.0.0.1:${port}/api/ws`, httpBase: `http://127.0.0.1:${port}`, log };
  }

  it('closes a socket sending an oversized message (1009), and bad frames make one log line, not one each', async () => {
    const { wsBase, log } = await loggedServer({ socketMaxMessageBytes: 1024 });
    const first = await wsConnect(`${wsBase}/drops`);
    const code = closeCode(first);
    first.send('x'.repeat(2048));
    expect(await code).toBe(1009);

    // twenty clients each send an oversized frame
    const codes = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const ws = await wsConnect(`${wsBase}/${i % 2 ? 'drops' : 'deposits'}`);
        const closed = closeCode(ws);
        ws.send(Buffer.alloc(100 * 1024, 1));
        return closed;
      }),
    );
    expect(codes.every((c) => c === 1009 || c === 1006)).toBe(true);
    // the server still serves sockets
    const healthy = await wsConnect(`${wsBase}/drops`);
    healthy.terminate();

    await built!.close();
    built = null;
    const errors = log.filter((l) => Number(l.level) >= 50);
    expect(errors, 'no error lines for what clients sent').toEqual([]);
    const summaries = log.filter((l) => String(l.msg).includes('socket protocol errors'));
    expect(summaries).toHaveLength(1);
    expect(summaries[0]!.count).toBe(21);
  });

  it('closes a socket flooding messages (1008), after answering at most the allowed number', async () => {
    const { wsBase, httpBase } = await loggedServer({ socketMessagesPer10s: 5 });
    const ws = await wsConnect(`${wsBase}/drops`);
    const pongs: unknown[] = [];
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string };
      if (message.type === 'pong') pongs.push(message);
    });
    const code = closeCode(ws);
    for (let i = 0; i < 200; i++) ws.send(JSON.stringify({ type: 'ping' }));
    expect(await code).toBe(1008);
    expect(pongs.length).toBeLessThanOrEqual(5);

    // the deposit socket too, once signed in
    const login = await fetch(`${httpBase}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ initData: signLaunchData({ id: 63001 }) }),
    });
    const { token } = (await login.json()) as { token: string };
    const deposits = await wsConnect(`${wsBase}/deposits`);
    const depositCode = closeCode(deposits);
    const authed = new Promise<void>((resolve) =>
      deposits.on('message', (data) => {
        if (String(data).includes('auth_ok')) resolve();
      }),
    );
    deposits.send(JSON.stringify({ type: 'auth', token }));
    await authed;
    for (let i = 0; i < 50; i++) deposits.send(JSON.stringify({ type: 'ping' }));
    expect(await depositCode).toBe(1008);

    // a socket within the limit stays open and is answered
    const calm = await wsConnect(`${wsBase}/drops`);
    const got = new Promise<void>((resolve) =>
      calm.on('message', (data) => {
        if (String(data).includes('pong')) resolve();
      }),
    );
    calm.send(JSON.stringify({ type: 'ping' }));
    await got;
    expect(calm.readyState).toBe(1);
    calm.terminate();
  });
});
