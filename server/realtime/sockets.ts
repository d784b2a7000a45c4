import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import { SocketCloseCode } from '../../contract/deposit.ts';

/** The part of a server-side WebSocket (the `ws` library's, handed over by @fastify/websocket) we use. */
export interface Socket {
  readonly readyState: number;
  /** a Buffer goes as a text message with { binary: false } */
  send(data: string | Buffer, options?: { binary?: boolean }): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  ping(): void;
  on(event: 'message', listener: (data: unknown, isBinary: boolean) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'pong', listener: () => void): unknown;
  once(event: 'message', listener: (data: unknown, isBinary: boolean) => void): unknown;
  once(event: 'close', listener: () => void): unknown;
}

const OPEN = 1;
const MAX_AUTH_MESSAGE_BYTES = 8192;
/** Close code for a socket that broke the message rate limit (policy violation). */
const TOO_MANY_MESSAGES = 1008;
/** A socket closed for breaking a limit that does not finish its closing handshake in this time is cut. */
const CLOSE_GRACE_MS = 1000;

/**
 * Limits what one socket may send: at most `perTenSeconds` messages in any 10-second window (a fixed
 * window); past it the socket is closed with 1008 and cut a second later. Sizes are limited by the
 * WebSocket server itself (maxPayload: a larger frame closes the socket with 1009). Call it before any
 * other message listener is added, so a flood is cut before it is handled.
 */
export function limitSocketMessages(socket: Socket, perTenSeconds: number, onLimit?: () => void): void {
  let windowStart = Date.now();
  let count = 0;
  let over = false;
  socket.on('message', () => {
    if (over) return;
    const now = Date.now();
    if (now - windowStart >= 10_000) {
      windowStart = now;
      count = 0;
    }
    count += 1;
    if (count <= perTenSeconds) return;
    over = true;
    onLimit?.();
    if (socket.readyState === OPEN) socket.close(TOO_MANY_MESSAGES, 'too many messages');
    setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
  });
}

/**
 * A warning that may be caused from outside (bad frames, floods): counted, and written at most once per
 * interval as one line with the count and the last error, so no client can flood the log.
 */
export class ThrottledWarning {
  private pending = 0;
  private last: unknown = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly what: string,
    private readonly intervalMs = 60_000,
  ) {}

  count(err?: unknown): void {
    this.pending += 1;
    this.last = err ?? null;
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs).unref();
  }

  /** Writes what was counted since the last line (if anything). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending === 0) return;
    const err = this.last instanceof Error ? { message: this.last.message } : undefined;
    this.log.warn({ count: this.pending, lastError: err }, this.what);
    this.pending = 0;
    this.last = null;
  }
}

/** Sends a JSON message if the socket is still open; returns whether it was sent. */
export function sendJson(socket: Socket, message: unknown): boolean {
  if (socket.readyState !== OPEN) return false;
  socket.send(JSON.stringify(message));
  return true;
}

/** A socket message as text (ws hands over a Buffer, an ArrayBuffer or Buffer fragments). */
export function messageText(data: unknown): string | null {
  if (typeof data === 'string') return data;
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  if (Array.isArray(data) && data.every((d) => Buffer.isBuffer(d)))
    return Buffer.concat(data).toString('utf8');
  return null;
}

/**
 * Waits for the client's first message, {type: 'auth', token}, within timeoutMs, and checks the token as
 * the HTTP API does (signature, expiry, and that the user exists). Resolves the user id, or closes the
 * socket (4400 malformed first message, 4401 bad token, 4408 no message in time) and resolves null.
 */
export function authenticateSocket(
  ctx: AppContext,
  socket: Socket,
  timeoutMs: number,
): Promise<bigint | null> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (userId: bigint | null, close?: { code: number; reason: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (close && socket.readyState === OPEN) socket.close(close.code, close.reason);
      resolve(userId);
    };
    const timer = setTimeout(
      () => finish(null, { code: SocketCloseCode.AUTH_TIMEOUT, reason: 'auth timeout' }),
      timeoutMs,
    );
    socket.once('close', () => finish(null));
    socket.once('message', (data) => {
      const text = messageText(data);
      let token: string | null = null;
      if (text !== null && text.length <= MAX_AUTH_MESSAGE_BYTES) {
        try {
          const msg = JSON.parse(text) as { type?: unknown; token?: unknown };
          if (msg && msg.type === 'auth' && typeof msg.token === 'string') token = msg.token;
        } catch {
          // not JSON: treated as a malformed first message below
        }
      }
      if (token === null) {
        finish(null, { code: SocketCloseCode.BAD_MESSAGE, reason: 'expected {type:"auth", token}' });
        return;
      }
      void verify(ctx, token).then(
        (userId) =>
          finish(
            userId,
            userId === null ? { code: SocketCloseCode.UNAUTHORIZED, reason: 'unauthorized' } : undefined,
          ),
        () => finish(null, { code: 1011, reason: 'server error' }),
      );
    });
  });
}

async function verify(ctx: AppContext, token: string): Promise<bigint | null> {
  const result = await ctx.tokens.verify(token);
  if (typeof result !== 'bigint') return null;
  const user = await ctx.db.selectFrom('users').select('id').where('id', '=', result).executeTakeFirst();
  return user ? result : null;
}

/**
 * The open sockets of one socket route, by user. Sends to one user's sockets or to all of them, and pings
 * every socket each heartbeat: one that did not answer the previous ping is dropped.
 */
export class SocketHub {
  private readonly byUser = new Map<string, Set<Socket>>();
  private readonly alive = new WeakMap<Socket, boolean>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(heartbeatMs = 30_000) {
    this.heartbeat = setInterval(() => this.beat(), heartbeatMs);
    this.heartbeat.unref();
  }

  /** Adds an authenticated socket; it leaves the hub when it closes. */
  add(userId: bigint | string, socket: Socket): void {
    const key = userId.toString();
    let set = this.byUser.get(key);
    if (!set) this.byUser.set(key, (set = new Set()));
    set.add(socket);
    this.alive.set(socket, true);
    socket.on('pong', () => this.alive.set(socket, true));
    socket.on('close', () => {
      const current = this.byUser.get(key);
      current?.delete(socket);
      if (current && current.size === 0) this.byUser.delete(key);
    });
  }

  /** Sends a JSON message to every open socket of the user; returns how many got it. */
  sendToUser(userId: bigint | string, message: unknown): number {
    const set = this.byUser.get(userId.toString());
    if (!set) return 0;
    const text = JSON.stringify(message);
    let sent = 0;
    for (const socket of set) {
      if (socket.readyState === OPEN) {
        socket.send(text);
        sent++;
      }
    }
    return sent;
  }

  /** Sends a JSON message to every open socket in the hub (a public feed). */
  broadcast(message: unknown): number {
    const text = JSON.stringify(message);
    let sent = 0;
    for (const set of this.byUser.values()) {
      for (const socket of set) {
        if (socket.readyState === OPEN) {
          socket.send(text);
          sent++;
        }
      }
    }
    return sent;
  }

  /** Number of open sockets. */
  get size(): number {
    let n = 0;
    for (const set of this.byUser.values()) n += set.size;
    return n;
  }

  private beat(): void {
    for (const set of this.byUser.values()) {
      for (const socket of set) {
        if (this.alive.get(socket) === false) {
          socket.terminate();
          continue;
        }
        this.alive.set(socket, false);
        if (socket.readyState === OPEN) socket.ping();
      }
    }
  }

  close(): void {
    clearInterval(this.heartbeat);
  }
}
