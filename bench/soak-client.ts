// One client process of the soak bench (bench/soak.bench.ts starts several, each with a slice of the
// players, so that the simulated players never share one event loop with ten thousand sockets). It signs its
// players in, opens their app sockets, acts on the main process's word and hands back what it measured:
// the server's answers by route and status, client-side failures counted apart (a request that got no
// answer is not a server status), socket messages and bytes, and its own event-loop delay and CPU, so the
// bench can tell when the client side, not the server, was the bottleneck.
import { randomUUID } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { Agent, request as httpRequest } from 'node:http';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { BOT_TOKEN, signLaunchData } from '../tests/api/harness.ts';

export interface ClientConfig {
  base: string;
  /** the players of this client: FIRST_ID + firstIndex ... + count - 1 */
  firstId: number;
  firstIndex: number;
  count: number;
  actionEveryS: number;
  caseId: string;
  /** the address this client's connections leave from (its own range of ports), or null */
  localAddress: string | null;
}

/** Main process → client. */
export type ToClient =
  { type: 'go'; until: number } | { type: 'measure' } | { type: 'stop' } | { type: 'close' };

export interface ClientResult {
  type: 'result';
  /** per route: answer times (ms) and answers by status, measured phase only */
  latencies: Record<string, number[]>;
  statuses: Record<string, Record<string, number>>;
  /** per route: requests that got no answer, by kind (timeout, reset, refused...), measured phase only */
  clientErrors: Record<string, Record<string, number>>;
  /** socket messages by type and their bytes, measured phase only */
  messages: Record<string, number>;
  socketBytes: number;
  socketsClosed: number;
  socketErrors: number;
  staleBalances: number;
  pushAfterAnswer: number[];
  /** this client's own event-loop delay over the measured phase, ms */
  lagP99Ms: number;
  lagMaxMs: number;
  /** CPU this client used over the measured phase, in cores (1 = one core busy all the time) */
  cpuCores: number;
}

export type FromClient =
  | { type: 'ready'; signInSeconds: number; connectSeconds: number }
  | { type: 'failed'; error: string }
  | ClientResult;

// ── the client process ─────────────────────────────────────────────────────────────────────────────

/** The part of a `ws` client socket used here (ws has no types of its own). */
interface WsSocket {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  terminate(): void;
  on(event: 'open' | 'close', listener: () => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
  on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): void;
}
type WsConstructor = new (
  url: string,
  options: { perMessageDeflate: boolean; localAddress?: string },
) => WsSocket;

const SIGNIN_CONCURRENCY = 16;
const SOCKET_CONCURRENCY = 100;
/** A request without an answer in this time counts as a client-side timeout. */
const REQUEST_TIMEOUT_MS = 30_000;

interface Player {
  id: number;
  token: string;
  socket: WsSocket | null;
  items: string[];
  timer: NodeJS.Timeout | null;
  balanceVersion: bigint;
  answeredAt: number | null;
  pushedAt: number | null;
}

async function pool(n: number, limit: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, n) }, async () => {
      while (next < n) await task(next++);
    }),
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function runClient(config: ClientConfig): void {
  const WS = createRequire(import.meta.url)('ws') as WsConstructor;
  const local = config.localAddress ?? undefined;
  // keep-alive: a few dozen connections carry every request of this client
  const agent = new Agent({ keepAlive: true, maxFreeSockets: 256, localAddress: local });
  const url = new URL(config.base);

  let measuring = false;
  let until = 0;
  let stopping = false;
  let inFlight = 0;
  const latencies: Record<string, number[]> = {};
  const statuses: Record<string, Record<string, number>> = {};
  const clientErrors: Record<string, Record<string, number>> = {};
  const messages: Record<string, number> = {};
  let socketBytes = 0;
  let socketsClosed = 0;
  let socketErrors = 0;
  let staleBalances = 0;
  const pushAfterAnswer: number[] = [];
  const lag = monitorEventLoopDelay({ resolution: 10 });
  let cpuAtMeasure = process.cpuUsage();
  let measureStartedAt = performance.now();

  const count = (table: Record<string, Record<string, number>>, route: string, key: string) => {
    const row = (table[route] ??= {});
    row[key] = (row[key] ?? 0) + 1;
  };

  /** One request; resolves the status and body (0 and null when no answer came). */
  function call<T>(
    route: string,
    path: string,
    init: { method?: string; token?: string; body?: unknown; key?: string },
    always = false,
  ): Promise<{ status: number; body: T | null }> {
    const t0 = performance.now();
    const payload = init.body === undefined ? null : JSON.stringify(init.body);
    inFlight++;
    return new Promise<{ status: number; body: T | null }>((resolve) => {
      const req = httpRequest(
        {
          agent,
          hostname: url.hostname,
          port: url.port,
          path,
          method: init.method ?? 'GET',
          headers: {
            ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
            ...(init.key ? { 'idempotency-key': init.key } : {}),
            // as the app's WebView asks: answers over the server's threshold come compressed
            'accept-encoding': 'br, gzip',
            ...(payload !== null
              ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
              : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            if (measuring || always) {
              (latencies[route] ??= []).push(performance.now() - t0);
              count(statuses, route, String(status));
            }
            let body: T | null = null;
            if (status >= 200 && status < 300 && chunks.length > 0) {
              try {
                body = JSON.parse(decoded(res.headers['content-encoding'], Buffer.concat(chunks))) as T;
              } catch {
                body = null;
              }
            }
            resolve({ status, body });
          });
          res.on('error', (err) => fail(err));
        },
      );
      const fail = (err: Error & { code?: string }) => {
        if (measuring || always) count(clientErrors, route, err.code ?? err.message.slice(0, 40));
        resolve({ status: 0, body: null });
      };
      req.setTimeout(REQUEST_TIMEOUT_MS, () =>
        req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })),
      );
      req.on('error', fail);
      req.end(payload ?? undefined);
    }).finally(() => inFlight--);
  }

  async function signIn(i: number): Promise<Player> {
    const id = config.firstId + config.firstIndex + i;
    const initData = signLaunchData({ id, first_name: `Soak ${id}` }, BOT_TOKEN);
    for (let attempt = 0; ; attempt++) {
      const res = await call<{ token: string }>(
        'POST /api/auth/login',
        '/api/auth/login',
        { method: 'POST', body: { initData } },
        true,
      );
      if (res.body?.token)
        return {
          id,
          token: res.body.token,
          socket: null,
          items: [],
          timer: null,
          balanceVersion: 0n,
          answeredAt: null,
          pushedAt: null,
        };
      if (attempt >= 3) throw new Error(`sign-in of player ${id} failed (${res.status})`);
      await sleep(500);
    }
  }

  function pair(player: Player, what: 'answered' | 'pushed'): void {
    const now = performance.now();
    if (what === 'answered') player.answeredAt = now;
    else player.pushedAt = now;
    if (player.answeredAt !== null && player.pushedAt !== null) {
      if (measuring) pushAfterAnswer.push(player.pushedAt - player.answeredAt);
      player.answeredAt = player.pushedAt = null;
    }
  }

  function connect(player: Player): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = new WS(`${config.base.replace('http', 'ws')}/api/ws`, {
        perMessageDeflate: false,
        localAddress: local,
      });
      player.socket = socket;
      let signedIn = false;
      socket.on('open', () => socket.send(JSON.stringify({ type: 'auth', token: player.token })));
      socket.on('message', (data) => {
        // every message starts with {"type":"<type>": read the type without decoding the whole message
        const head = data.toString('latin1', 0, 32);
        const type = head.startsWith('{"type":"') ? head.slice(9, head.indexOf('"', 9)) : 'other';
        if (measuring) {
          messages[type] = (messages[type] ?? 0) + 1;
          socketBytes += data.length;
        }
        if (type === 'auth_ok' && !signedIn) {
          signedIn = true;
          resolve();
        } else if (type === 'balance') {
          const version = BigInt((JSON.parse(data.toString('utf8')) as { version: string }).version);
          if (version <= player.balanceVersion) staleBalances++;
          player.balanceVersion = version;
          if (signedIn && measuring) pair(player, 'pushed');
        }
      });
      socket.on('close', () => {
        if (!signedIn) reject(new Error(`the socket of player ${player.id} closed before sign-in`));
        else if (!stopping) socketsClosed++;
      });
      socket.on('error', () => {
        if (!signedIn) reject(new Error(`the socket of player ${player.id} failed`));
        else socketErrors++;
      });
    });
  }

  async function act(player: Player): Promise<void> {
    player.answeredAt = player.pushedAt = null;
    const roll = Math.random();
    if (roll < 0.35 && player.items.length > 0) {
      const itemId = player.items.pop()!;
      await call('POST /api/inventory/sell', '/api/inventory/sell', {
        method: 'POST',
        token: player.token,
        body: { itemId, quantity: 1 },
        key: randomUUID(),
      });
    } else if (roll < 0.5) {
      const res = await call<{ results: { item: { id: string } }[] }>(
        'POST /api/cases/open-multiple',
        '/api/cases/open-multiple',
        {
          method: 'POST',
          token: player.token,
          body: { caseId: config.caseId, amount: 3 },
          key: randomUUID(),
        },
      );
      for (const r of res.body?.results ?? []) player.items.push(r.item.id);
    } else {
      const res = await call<{ item: { id: string } }>('POST /api/cases/open', '/api/cases/open', {
        method: 'POST',
        token: player.token,
        body: { caseId: config.caseId },
        key: randomUUID(),
      });
      if (res.body) player.items.push(res.body.item.id);
    }
    pair(player, 'answered');
  }

  function schedule(player: Player): void {
    const wait = Math.random() * 2 * config.actionEveryS * 1000;
    if (stopping || Date.now() + wait > until) return;
    player.timer = setTimeout(() => {
      player.timer = null;
      void act(player).finally(() => schedule(player));
    }, wait);
  }

  const players: Player[] = [];
  const send = (message: FromClient) => process.send!(message);

  process.on('message', (message: ToClient) => {
    if (message.type === 'go') {
      until = message.until;
      for (const p of players) schedule(p);
    } else if (message.type === 'measure') {
      measuring = true;
      lag.enable();
      lag.reset();
      cpuAtMeasure = process.cpuUsage();
      measureStartedAt = performance.now();
    } else if (message.type === 'stop') {
      stopping = true;
      for (const p of players) if (p.timer) clearTimeout(p.timer);
      void (async () => {
        const deadline = Date.now() + REQUEST_TIMEOUT_MS + 5000;
        while (inFlight > 0 && Date.now() < deadline) await sleep(100);
        measuring = false;
        lag.disable();
        const cpu = process.cpuUsage(cpuAtMeasure);
        const seconds = (performance.now() - measureStartedAt) / 1000;
        send({
          type: 'result',
          latencies,
          statuses,
          clientErrors,
          messages,
          socketBytes,
          socketsClosed,
          socketErrors,
          staleBalances,
          pushAfterAnswer,
          lagP99Ms: lag.count > 0 ? lag.percentile(99) / 1e6 : 0,
          lagMaxMs: lag.count > 0 ? lag.max / 1e6 : 0,
          cpuCores: seconds > 0 ? (cpu.user + cpu.system) / 1e6 / seconds : 0,
        });
      })();
    } else if (message.type === 'close') {
      for (const p of players) p.socket?.terminate();
      agent.destroy();
      process.exit(0);
    }
  });

  void (async () => {
    try {
      let t0 = performance.now();
      const signedIn = new Array<Player>(config.count);
      await pool(config.count, SIGNIN_CONCURRENCY, async (i) => {
        signedIn[i] = await signIn(i);
      });
      players.push(...signedIn);
      const signInSeconds = (performance.now() - t0) / 1000;
      t0 = performance.now();
      await pool(config.count, SOCKET_CONCURRENCY, (i) => connect(players[i]!));
      send({ type: 'ready', signInSeconds, connectSeconds: (performance.now() - t0) / 1000 });
    } catch (err) {
      send({ type: 'failed', error: err instanceof Error ? err.message : String(err) });
    }
  })();
}

if (process.env.SOAK_CLIENT_CONFIG && process.send)
  runClient(JSON.parse(process.env.SOAK_CLIENT_CONFIG) as ClientConfig);

/** An answer's body as text, decompressed as its Content-Encoding says. */
function decoded(encoding: string | undefined, body: Buffer): string {
  if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(body).toString('utf8');
  return body.toString('utf8');
}
