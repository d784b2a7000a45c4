import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { Value } from 'typebox/value';
import type { BattleEventMessage } from '../../contract/battles.ts';
import { formatTon } from '../../contract/money.ts';
import {
  AppSocketAuth,
  AppSocketQuery,
  AppSocketWatchBattles,
  FEED_BATCH_MAX,
  FEED_BATCH_MS,
  HEARTBEAT_MS,
  type AppSocketServerMessage,
  type BalanceMessage,
} from '../../contract/socket.ts';
import type { App, AppContext } from '../context.ts';
import type { Db } from '../db/index.ts';
import type { CommittedBalance } from '../db/ledger-watch.ts';
import type { EventBus } from './bus.ts';
import { BATTLES_CHANNEL, isBattleEvent } from './battles.ts';
import { DEPOSITS_CHANNEL, depositMessage } from './deposits.ts';
import { WITHDRAWALS_CHANNEL, withdrawalMessage } from './withdrawals.ts';
import {
  DROPS_CHANNEL,
  DropFanOut,
  frame,
  inSlices,
  latestDrops,
  receivedDrop,
  sendFrame,
  sharedLatestDrops,
  type FeedSocket,
} from './feed.ts';
import { limitSocketMessages, messageText, ThrottledWarning, type Socket } from './sockets.ts';

/**
 * The app socket, GET /ws (contract/socket.ts): one socket per app for the live feed, the player's balance,
 * deposit credits and battle events.
 *
 * Balances: every committed transaction that wrote ledger rows is reported by the database driver (the one
 * place every balance change passes, see db/ledger-watch.ts). The instance that committed publishes each
 * player's balance with the id of their last ledger row (the version): as the transaction's own statement
 * told it (the opening's debit), or else read after the commit, the players of one event-loop turn in one
 * statement, and sends them (one bus message per PUBLISH_CHUNK players) on the bus channel 'balances';
 * every instance pushes them to that player's sockets, never one older than, or as old as, the last that
 * socket was sent (two reads racing may arrive out of order, and a socket's sign-in reads its balance while
 * a fan-out of the same commit may be on its way; the version decides).
 */

/**
 * The live feed's batches leave at most this many socket writes a second per instance: up to 5,000 app
 * sockets a batch a second (FEED_BATCH_MS), 10,000 sockets one every 2 s. A socket write is a system call
 * (on loopback about 15 µs with the receiver's side): at a batch a second for 10,000 sockets, the soak's
 * profile had 40% of the server's CPU in them.
 */
const FEED_SENDS_PER_SECOND = 5000;

/** Bus channel of committed balances. */
const BALANCES_CHANNEL = 'balances';
/** Players read in one statement after commits. */
const READ_CHUNK = 500;
/** Balances in one bus message (about 60 bytes each; a message holds under 8000). */
const PUBLISH_CHUNK = 100;
/** A closed socket that does not finish its closing handshake in this time is cut. */
const OPEN = 1;

/** What travels on the bus for a balance: ids and nanoTON as decimal strings. */
interface BalanceEvent {
  /** user id */
  u: string;
  /** balance, nanoTON */
  b: string;
  /** the id of the last ledger row included */
  v: string;
}

/** What travels on the bus: the balances read after commits, together. */
interface BalanceBatch {
  list: BalanceEvent[];
}

function isBalanceBatch(p: unknown): p is BalanceBatch {
  return typeof p === 'object' && p !== null && Array.isArray((p as BalanceBatch).list);
}

function isBalanceEvent(p: unknown): p is BalanceEvent {
  if (typeof p !== 'object' || p === null) return false;
  const e = p as Record<string, unknown>;
  return (
    typeof e.u === 'string' &&
    /^\d+$/.test(e.u) &&
    typeof e.b === 'string' &&
    /^-?\d+$/.test(e.b) &&
    typeof e.v === 'string' &&
    /^\d+$/.test(e.v)
  );
}

/** The players' balances with the id of their last ledger row, read in one snapshot. */
async function readBalances(db: Db, userIds: readonly bigint[]): Promise<BalanceEvent[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .selectFrom('users as u')
    .select([
      'u.id',
      'u.balance_nano',
      sql<bigint | null>`(SELECT max(l.id) FROM ledger l WHERE l.user_id = u.id)`.as('version'),
    ])
    .where('u.id', 'in', userIds)
    .execute();
  return rows.map((r) => ({
    u: r.id.toString(),
    b: r.balance_nano.toString(),
    v: (r.version ?? 0n).toString(),
  }));
}

/**
 * Publishes the balances of the players whose transactions commit, after the commit. A balance the
 * transaction's own statement told (db/ledger-watch.ts) goes as it is; the others are read, together for
 * the hints arriving in the same turn of the event loop (one statement per READ_CHUNK players).
 */
function startBalancePublisher(ctx: AppContext, log: FastifyBaseLogger): () => void {
  /** per player: the balance told, or null when it must be read (a read sees the latest commit) */
  let waiting = new Map<bigint, CommittedBalance | null>();
  let scheduled = false;
  const publish = async (events: BalanceEvent[]) => {
    for (let j = 0; j < events.length; j += PUBLISH_CHUNK) {
      await ctx.bus.publish(BALANCES_CHANNEL, {
        list: events.slice(j, j + PUBLISH_CHUNK),
      } satisfies BalanceBatch);
    }
  };
  const flush = async () => {
    scheduled = false;
    const told: BalanceEvent[] = [];
    const unknown: bigint[] = [];
    for (const [u, known] of waiting) {
      if (known) told.push({ u: u.toString(), b: known.balanceNano.toString(), v: known.version.toString() });
      else unknown.push(u);
    }
    waiting = new Map();
    try {
      await publish(told);
    } catch (err) {
      log.warn({ err }, 'balance push failed');
    }
    for (let i = 0; i < unknown.length; i += READ_CHUNK) {
      try {
        await publish(await readBalances(ctx.db, unknown.slice(i, i + READ_CHUNK)));
      } catch (err) {
        // the money is in; the client learns the balance at its next connect (or from its poll)
        log.warn({ err }, 'balance push failed');
      }
    }
  };
  return ctx.database.ledger.add((users) => {
    for (const [u, known] of users) {
      const before = waiting.get(u);
      // an unknown balance stays unknown (the read covers every commit); of two told, the later version
      if (before === null) continue;
      if (known === null || before === undefined || known.version > before.version) waiting.set(u, known);
    }
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => void flush());
  });
}

interface Client {
  socket: FeedSocket;
  userId: string | null;
  battles: 'all' | ReadonlySet<string>;
  /** an auth message is being checked: later messages wait for its answer */
  authing: Promise<void> | null;
  /**
   * the greatest balance version this socket was sent since it signed in: the sign-in's own read and a
   * fan-out of the same commit can race, and either may come first; the socket gets that balance once
   */
  pushed: bigint | null;
}

/** The app sockets of one instance: who is signed in on which, and what they watch. */
class AppSockets {
  private readonly clients = new Set<Client>();
  private readonly byUser = new Map<string, Set<Client>>();
  private readonly alive = new WeakMap<Client, boolean>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor() {
    this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  add(client: Client): void {
    this.clients.add(client);
    this.alive.set(client, true);
    client.socket.on('pong', () => this.alive.set(client, true));
    client.socket.on('close', () => {
      this.clients.delete(client);
      this.signOut(client);
    });
  }

  signIn(client: Client, userId: string): void {
    if (client.userId === userId) return;
    this.signOut(client);
    client.userId = userId;
    let set = this.byUser.get(userId);
    if (!set) this.byUser.set(userId, (set = new Set()));
    set.add(client);
  }

  private signOut(client: Client): void {
    if (client.userId === null) return;
    const set = this.byUser.get(client.userId);
    set?.delete(client);
    if (set && set.size === 0) this.byUser.delete(client.userId);
    client.userId = null;
    client.pushed = null;
  }

  /** A committed balance: to each of the player's sockets here that has not had one as new. */
  balance(event: BalanceEvent): void {
    const set = this.byUser.get(event.u);
    if (!set) return;
    const version = BigInt(event.v);
    let data: Buffer | null = null;
    for (const client of set) {
      if (client.pushed !== null && version <= client.pushed) continue;
      client.pushed = version;
      data ??= frame(balanceMessage(event));
      send(client.socket, data);
    }
  }

  /** The balance read at a socket's sign-in: to that socket only, unless a fan-out brought one as new. */
  balanceTo(client: Client, event: BalanceEvent): void {
    const version = BigInt(event.v);
    if (client.pushed !== null && version <= client.pushed) return;
    client.pushed = version;
    send(client.socket, frame(balanceMessage(event)));
  }

  /** The sockets the player is signed in on here. */
  *socketsOf(userId: string): Iterable<FeedSocket> {
    const set = this.byUser.get(userId);
    if (set) for (const client of set) yield client.socket;
  }

  toUser(userId: string, message: AppSocketServerMessage): void {
    const set = this.byUser.get(userId);
    if (!set) return;
    const data = frame(message);
    for (const client of set) send(client.socket, data);
  }

  /** A battle event to the sockets watching it: encoded once, sent in slices. */
  battle(event: BattleEventMessage): void {
    let data: Buffer | null = null;
    inSlices([...this.clients], (client) => {
      if (client.battles === 'all' || client.battles.has(event.id)) {
        data ??= frame(event);
        send(client.socket, data);
      }
    });
  }

  /**
   * Protocol pings (a socket that missed the last one is cut) and an {type: 'hb'} the client can hear, in
   * slices: ten thousand sockets never hold the event loop at once.
   */
  private beat(): void {
    inSlices([...this.clients], (client) => {
      if (!this.clients.has(client)) return;
      const { socket } = client;
      if (this.alive.get(client) === false) {
        socket.terminate();
        return;
      }
      this.alive.set(client, false);
      if (socket.readyState === OPEN) {
        socket.ping();
        sendFrame(socket, HEARTBEAT);
      }
    });
  }

  get size(): number {
    return this.clients.size;
  }

  close(): void {
    clearInterval(this.heartbeat);
  }
}

const HEARTBEAT = Buffer.from('{"type":"hb"}');
const AUTH_OK = Buffer.from('{"type":"auth_ok"}');
const AUTH_FAILED = Buffer.from('{"type":"auth_failed"}');

/** Sends unless the socket is closed or too far behind (the feed closes those). */
function send(socket: FeedSocket, data: Buffer): void {
  if (socket.readyState === OPEN) sendFrame(socket, data);
}

function balanceMessage(event: BalanceEvent): BalanceMessage {
  return { type: 'balance', balance: formatTon(BigInt(event.b)), version: event.v };
}

/** The token's user, if the token is valid and the user exists. */
async function verify(ctx: AppContext, token: string): Promise<bigint | null> {
  const result = await ctx.tokens.verify(token);
  if (typeof result !== 'bigint') return null;
  const user = await ctx.db.selectFrom('users').select('id').where('id', '=', result).executeTakeFirst();
  return user ? result : null;
}

/** GET /ws (WebSocket): see contract/socket.ts. Returns the count of open app sockets (for metrics). */
export function appSocketRoutes(app: App, ctx: AppContext): () => number {
  const sockets = new AppSockets();
  const feed = new DropFanOut(app.log, {
    batchMs: FEED_BATCH_MS,
    batchMax: FEED_BATCH_MAX,
    heartbeat: false,
    ownerSockets: (owner) => sockets.socketsOf(owner),
    sendsPerSecond: FEED_SENDS_PER_SECOND,
  });
  const newest = sharedLatestDrops(ctx.db);
  const floods = new ThrottledWarning(app.log, 'app sockets closed for sending too many messages');
  const stopPublisher = startBalancePublisher(ctx, app.log);
  const bus: EventBus = ctx.bus;
  const unsubscribe = [
    bus.subscribe(DROPS_CHANNEL, (payload) => {
      const received = receivedDrop(payload);
      if (received) feed.deliver(received.drop, received.owner);
    }),
    bus.subscribe(BALANCES_CHANNEL, (payload) => {
      if (!isBalanceBatch(payload)) {
        app.log.warn('a balance message of an unknown shape was ignored');
        return;
      }
      for (const event of payload.list) {
        if (isBalanceEvent(event)) sockets.balance(event);
      }
    }),
    bus.subscribe(DEPOSITS_CHANNEL, (payload) => {
      const message = depositMessage(payload);
      if (message) sockets.toUser(message.userId, message.message);
    }),
    bus.subscribe(BATTLES_CHANNEL, (payload) => {
      if (isBattleEvent(payload)) sockets.battle(payload);
    }),
    bus.subscribe(WITHDRAWALS_CHANNEL, (payload) => {
      const message = withdrawalMessage(payload);
      if (message) sockets.toUser(message.userId, message.message);
    }),
  ];
  app.addHook('onClose', async () => {
    stopPublisher();
    for (const u of unsubscribe) u();
    sockets.close();
    feed.close();
    floods.flush();
  });

  app.get('/ws', { websocket: true, schema: { querystring: AppSocketQuery } }, (raw, request) => {
    const socket = raw as unknown as FeedSocket;
    const { after: afterText } = request.query as AppSocketQuery;
    const after = afterText === undefined ? null : BigInt(afterText);
    // before any other listener: a flooding socket is closed (1008) before its messages are read
    limitSocketMessages(socket as Socket, ctx.config.socketMessagesPer10s, () => floods.count());
    const client: Client = { socket, userId: null, battles: new Set(), authing: null, pushed: null };
    sockets.add(client);
    feed.join(socket, after, () => (after === null ? newest() : latestDrops(ctx.db, after)));

    const authenticate = async (token: string) => {
      let userId: bigint | null = null;
      try {
        userId = await verify(ctx, token);
      } catch (err) {
        request.log.warn({ err }, 'app socket: a token could not be checked');
      }
      if (socket.readyState !== OPEN) return;
      if (userId === null) {
        send(socket, AUTH_FAILED);
        return;
      }
      sockets.signIn(client, userId.toString());
      send(socket, AUTH_OK);
      // the balance now: the client starts from it (and catches up whatever it missed while away)
      const [now] = await readBalances(ctx.db, [userId]);
      if (now && client.userId === now.u) sockets.balanceTo(client, now);
    };

    socket.on('message', (data) => {
      const text = messageText(data);
      if (text === null || text.length > ctx.config.socketMaxMessageBytes) return;
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        return; // not JSON: ignored
      }
      if (Value.Check(AppSocketAuth, message)) {
        const previous = client.authing ?? Promise.resolve();
        const current = previous.then(() => authenticate(message.token));
        client.authing = current;
        void current.finally(() => {
          if (client.authing === current) client.authing = null;
        });
      } else if (Value.Check(AppSocketWatchBattles, message)) {
        client.battles = message.watch === 'all' ? 'all' : new Set(message.watch);
      }
      // anything else (a ping of an older client included) is ignored: the server pings
    });
  });
  return () => sockets.size;
}
