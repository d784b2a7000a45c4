import type { FastifyBaseLogger } from 'fastify';
import {
  DROP_FEED_CATCH_UP,
  DropFeedCloseCode,
  DropFeedQuery,
  type DropEvent,
  type DropMessage,
  type DropsMessage,
} from '../../contract/feed.ts';
import type { App, AppContext } from '../context.ts';
import type { Db } from '../db/index.ts';
import type { EventBus } from './bus.ts';
import { limitSocketMessages, messageText, SocketHub, ThrottledWarning, type Socket } from './sockets.ts';

/**
 * The live drops feed (spec §1, §3, §7).
 *
 * After an opening's transaction commits, its route announces one DropEvent per copy on the bus channel
 * 'drops' (LISTEN/NOTIFY across instances on Postgres, in-process on PGlite). Every instance forwards what
 * the bus brings to its own feed sockets. The database stays the record: a connecting socket gets its
 * catch-up from the openings table, so every instance (and a restarted one) answers alike, and the drop id
 * is the opening id, so `after=<last id seen>` resumes without gaps or repeats.
 *
 * No gap, no repeat between the catch-up and live drops: a socket joins the fan-out before its catch-up
 * is read; live drops arriving meanwhile wait in a small per-socket buffer, then follow the catch-up
 * unless the catch-up already holds them; one committed just before the read but announced just after it
 * is recognised by id and skipped.
 *
 * A slow client never slows the others: sends never wait, and a socket whose unsent backlog passes
 * MAX_BUFFERED_BYTES is closed (1013, it reconnects and catches up with `after`). Heartbeat pings drop
 * dead sockets (SocketHub).
 */

/** Bus channel of drop events; the payload is the public DropEvent itself. */
export const DROPS_CHANNEL = 'drops';
/** Unsent bytes a feed socket may hold before it is closed as too slow. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Live drops held for one socket while its catch-up is read; past it the oldest are let go. */
const MAX_PENDING = 500;
/** A closed socket that does not finish its closing handshake in this time is cut. */
const CLOSE_GRACE_MS = 1000;
/** Longer photo URLs are not shown (a bus message has a size limit). */
const MAX_AVATAR_URL = 1024;

/** What a drop is made from: an opening joined with its player, case and item. */
export interface DropRow {
  /** the opening id */
  id: bigint;
  created_at: Date;
  username: string | null;
  first_name: string;
  photo_url: string | null;
  case_id: string;
  case_name: string;
  case_image_url: string;
  item_id: string;
  item_name: string;
  item_image_url: string;
  /** the opening's public bet id: its proof page */
  bet_id: string;
}

/** The public shape of a drop: no Telegram id, no balance. */
function toDropEvent(row: DropRow): DropEvent {
  const avatar =
    row.photo_url && row.photo_url.length <= MAX_AVATAR_URL && /^https?:\/\//i.test(row.photo_url)
      ? row.photo_url
      : null;
  return {
    id: row.id.toString(),
    timestamp: row.created_at.toISOString(),
    user: { username: row.username ? `@${row.username}` : row.first_name, avatar },
    case: { id: row.case_id, name: row.case_name, imageUrl: row.case_image_url, imageBase64: null },
    item: { id: row.item_id, name: row.item_name, imageUrl: row.item_image_url },
    betId: row.bet_id,
  };
}

/** The newest drops (at most `limit`), newest first; with `after`, only drops with a greater id. */
export async function latestDrops(
  db: Db,
  after: bigint | null,
  limit = DROP_FEED_CATCH_UP,
): Promise<DropEvent[]> {
  let query = db
    .selectFrom('openings as o')
    .innerJoin('users as u', 'u.id', 'o.user_id')
    .innerJoin('cases as c', 'c.id', 'o.case_id')
    .innerJoin('items as i', 'i.id', 'o.item_id')
    .select([
      'o.id',
      'o.created_at',
      'u.username',
      'u.first_name',
      'u.photo_url',
      'c.id as case_id',
      'c.name as case_name',
      'c.image_url as case_image_url',
      'i.id as item_id',
      'i.name as item_name',
      'i.image_url as item_image_url',
      'o.public_id as bet_id',
    ]);
  if (after !== null) query = query.where('o.id', '>', after);
  const rows = await query.orderBy('o.id', 'desc').limit(limit).execute();
  return rows.map(toDropEvent);
}

/**
 * The catch-up of sockets connecting without `after` (the newest drops: the same for all of them), read
 * once for all the sockets that joined before the read begins: a storm of reconnects costs one read per
 * turn of the event loop, not one per socket. A shared read begins only after each of its sockets has
 * joined the fan-out, so none misses a drop (see DropFanOut.join).
 */
export function sharedLatestDrops(db: Db): () => Promise<DropEvent[]> {
  let next: Promise<DropEvent[]> | null = null;
  return () =>
    (next ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      next = null; // sockets joining from now on wait for a read that begins after them
      return latestDrops(db, null);
    }));
}

/** What travels on the bus for a drop: the public event and, apart, the id of the player who opened it. */
interface DropAnnouncement extends DropEvent {
  /** the player's user id (decimal text): their own sockets get the drop even when a batch leaves it out */
  owner?: string;
}

/**
 * Announces committed openings of one player on the bus, in order, without holding up the caller. Call it
 * only after the opening's transaction has committed: a rolled-back opening must never be announced.
 */
export function announceDrops(
  bus: EventBus,
  rows: readonly DropRow[],
  log: FastifyBaseLogger,
  owner?: bigint,
): void {
  if (rows.length === 0) return;
  const ownerText = owner === undefined ? undefined : owner.toString();
  const announce = (row: DropRow): DropAnnouncement =>
    ownerText === undefined ? toDropEvent(row) : { ...toDropEvent(row), owner: ownerText };
  // one message per drop, all in one go: an x3 opening costs one NOTIFY statement, not three. A drop
  // too big for a message refuses the lot before anything is sent: then each is tried on its own, so one
  // bad drop never keeps the others from the feed.
  bus.publishAll(DROPS_CHANNEL, rows.map(announce)).catch(async (err: unknown) => {
    if (!(err instanceof RangeError)) {
      log.warn({ err, openingIds: rows.map((r) => r.id.toString()) }, 'drops were not announced');
      return;
    }
    for (const row of rows) {
      try {
        await bus.publish(DROPS_CHANNEL, announce(row));
      } catch (err) {
        log.warn({ err, openingId: row.id.toString() }, 'a drop was not announced');
      }
    }
  });
}

/**
 * A drop from the bus as the public event and its owner (absent: not told), or null when the payload is
 * not a drop. The owner never reaches a socket.
 */
export function receivedDrop(payload: unknown): { drop: DropEvent; owner: string | null } | null {
  if (!isDropEvent(payload)) return null;
  const { owner, ...drop } = payload as DropAnnouncement;
  return { drop, owner: typeof owner === 'string' && /^\d{1,20}$/.test(owner) ? owner : null };
}

function isText(v: unknown): v is string {
  return typeof v === 'string';
}

function isDropEvent(p: unknown): p is DropEvent {
  if (typeof p !== 'object' || p === null) return false;
  const e = p as { id?: unknown; timestamp?: unknown; user?: unknown; case?: unknown; item?: unknown };
  const user = e.user as { username?: unknown; avatar?: unknown } | null | undefined;
  const box = e.case as { id?: unknown; name?: unknown; imageUrl?: unknown } | null | undefined;
  const item = e.item as { id?: unknown; name?: unknown; imageUrl?: unknown } | null | undefined;
  return (
    isText(e.id) &&
    /^\d{1,18}$/.test(e.id) &&
    isText(e.timestamp) &&
    !!user &&
    isText(user.username) &&
    (user.avatar === null || isText(user.avatar)) &&
    !!box &&
    isText(box.id) &&
    isText(box.name) &&
    isText(box.imageUrl) &&
    !!item &&
    isText(item.id) &&
    isText(item.name) &&
    isText(item.imageUrl)
  );
}

/** A server-side feed socket: the `ws` socket, whose unsent backlog we watch. */
export interface FeedSocket extends Socket {
  readonly bufferedAmount: number;
}

interface Member {
  /** live drops waiting for the catch-up to go first; null once it has gone */
  pending: DropEvent[] | null;
  /**
   * ids of the catch-up batch: a live copy of one of them arriving later is not sent again. Such a copy
   * (committed before the catch-up was read, announced after) comes within moments of the read, so the
   * set is let go SENT_WATCH_MS after it: until then a batch is checked against it, after that every
   * socket shares the one serialised frame.
   */
  sent: Set<string> | null;
  /** when `sent` is let go (ms, Date.now) */
  sentUntil: number;
}

const OPEN = 1;
const PONG = Buffer.from('{"type":"pong"}');
/** How long a socket's catch-up ids are watched for late live copies. */
const SENT_WATCH_MS = 15_000;
/** Sockets sent to in one go: a fan-out to many sockets yields to the event loop between slices. */
export const FAN_OUT_SLICE = 500;

/** A message as one UTF-8 buffer: encoded once, the same bytes go to every socket. */
export function frame(message: unknown): Buffer {
  return Buffer.from(JSON.stringify(message));
}

/** Sends a frame as a text message (never waits). */
export function sendFrame(socket: Socket, data: Buffer): void {
  socket.send(data, TEXT);
}
const TEXT = { binary: false } as const;

/**
 * Runs visit(item) for every item, FAN_OUT_SLICE at a time with a turn of the event loop between slices
 * (so a send to ten thousand sockets never holds the loop for long); calls done after the last one.
 */
export function inSlices<T>(items: readonly T[], visit: (item: T) => void, done?: () => void): void {
  let at = 0;
  const step = () => {
    const end = Math.min(items.length, at + FAN_OUT_SLICE);
    for (; at < end; at++) visit(items[at]!);
    if (at < items.length) setImmediate(step);
    else done?.();
  };
  step();
}

/** Drops of one batch window held at most (a window busier than this keeps its newest; own drops still reach their owners). */
export const MAX_WINDOW = 2000;

/** How a fan-out batches (see DropFanOut.deliver). */
export interface FanOutOptions {
  /** > 0: new drops go out in batches, at most one per this many ms; 0: each at once */
  batchMs?: number;
  /** most drops in a batch (its newest); default: the catch-up's size */
  batchMax?: number;
  /** false leaves the pings to the caller (a socket in another SocketHub already gets them) */
  heartbeat?: boolean;
  /** the sockets a player is signed in on: their own drops left out of a batch go to them */
  ownerSockets?: (owner: string) => Iterable<FeedSocket> | undefined;
  /**
   * most batch messages a second for all the sockets together: with more sockets than this, batches leave
   * less often than batchMs (each socket write is a system call, and on a busy instance they were most of
   * its CPU); unlimited when left out
   */
  sendsPerSecond?: number;
}

/** The feed sockets of one instance (of one socket route). */
export class DropFanOut {
  private readonly members = new Map<FeedSocket, Member>();
  private readonly hub: SocketHub | null;
  private readonly batchMs: number;
  private readonly batchMax: number;
  private readonly ownerSockets: FanOutOptions['ownerSockets'];
  private readonly sendsPerSecond: number;
  /** the window's drops, oldest first, with their owners (null: not told) */
  private batch: { drop: DropEvent; owner: string | null }[] = [];
  private batchTimer: NodeJS.Timeout | null = null;
  /** a batch is on its way to the sockets (in slices) */
  private sending = false;
  /** catch-up reads as sent, while a read is in use */
  private readonly catchUpFrames = new WeakMap<readonly DropEvent[], Buffer>();

  constructor(
    private readonly log: FastifyBaseLogger,
    options: FanOutOptions = {},
  ) {
    this.batchMs = options.batchMs ?? 0;
    this.batchMax = options.batchMax ?? DROP_FEED_CATCH_UP;
    this.ownerSockets = options.ownerSockets;
    this.sendsPerSecond = options.sendsPerSecond ?? Infinity;
    this.hub = options.heartbeat === false ? null : new SocketHub();
  }

  /**
   * A live drop from the bus. Without batching it goes out at once as {type: 'drop'}; with batchMs, drops
   * wait up to batchMs and leave together as one {type: 'drops'} message of the window's newest batchMax
   * drops (newest first), serialised once for every socket; a drop left out goes to its owner's sockets
   * only, when the owner is told.
   */
  deliver(drop: DropEvent, owner: string | null = null): void {
    if (this.batchMs > 0) {
      this.batch.push({ drop, owner });
      // a window busier than MAX_WINDOW keeps its newest half; the older half's own drops go to their owners now
      if (this.batch.length > MAX_WINDOW)
        this.sendOwn(this.batch.splice(0, this.batch.length - MAX_WINDOW / 2));
      if (!this.sending) this.batchTimer ??= setTimeout(() => this.flush(), this.interval());
      return;
    }
    let data: Buffer | null = null;
    const now = Date.now();
    for (const [socket, member] of this.members) {
      if (member.pending) {
        if (member.pending.length >= MAX_PENDING) member.pending.shift();
        member.pending.push(drop);
        continue;
      }
      if (member.sent && now > member.sentUntil) member.sent = null;
      if (member.sent?.delete(drop.id)) continue;
      data ??= frame({ type: 'drop', drop } satisfies DropMessage);
      this.send(socket, data);
    }
  }

  private flush(): void {
    this.batchTimer = null;
    const window = this.batch;
    this.batch = [];
    if (window.length === 0) return;
    const drops = window
      .slice(-this.batchMax)
      .reverse()
      .map((d) => d.drop); // newest first
    const left = window.slice(0, Math.max(0, window.length - this.batchMax));
    this.sendOwn(left);
    // one frame for every socket; the sockets of this moment, in slices. Batches collect meanwhile and
    // the next one leaves after this one has gone to every socket (so they arrive in order).
    this.sending = true;
    let shared: Buffer | null = null;
    const now = Date.now();
    inSlices(
      [...this.members],
      ([socket, member]) => {
        if (this.members.get(socket) !== member) return; // gone meanwhile
        if (member.pending) {
          member.pending.push(...drops);
          if (member.pending.length > MAX_PENDING)
            member.pending.splice(0, member.pending.length - MAX_PENDING);
          return;
        }
        if (member.sent && now > member.sentUntil) member.sent = null;
        const sent = member.sent;
        if (sent && drops.some((d) => sent.has(d.id))) {
          const own = drops.filter((d) => !sent.delete(d.id));
          if (own.length > 0) this.send(socket, frame({ type: 'drops', drops: own } satisfies DropsMessage));
          return;
        }
        shared ??= frame({ type: 'drops', drops } satisfies DropsMessage);
        this.send(socket, shared);
      },
      () => {
        this.sending = false;
        // the next batch an interval after this one began (at once when sending took longer)
        const wait = Math.max(0, now + this.interval() - Date.now());
        if (this.batch.length > 0) this.batchTimer ??= setTimeout(() => this.flush(), wait);
      },
    );
  }

  /** The time between batches: batchMs, or longer when that would send more than sendsPerSecond. */
  interval(): number {
    return Math.max(this.batchMs, Math.ceil((this.members.size / this.sendsPerSecond) * 1000));
  }

  /** Drops a batch left out, each to its owner's sockets here (newest first, one message per socket). */
  private sendOwn(left: readonly { drop: DropEvent; owner: string | null }[]): void {
    if (!this.ownerSockets || left.length === 0) return;
    const byOwner = new Map<string, DropEvent[]>();
    for (const { drop, owner } of left) {
      if (owner === null) continue;
      const list = byOwner.get(owner);
      if (list) list.unshift(drop);
      else byOwner.set(owner, [drop]);
    }
    for (const [owner, own] of byOwner) {
      const sockets = this.ownerSockets(owner);
      if (!sockets) continue;
      for (const socket of sockets) {
        const member = this.members.get(socket);
        if (!member) continue;
        if (member.pending) {
          member.pending.push(...own);
          if (member.pending.length > MAX_PENDING)
            member.pending.splice(0, member.pending.length - MAX_PENDING);
          continue;
        }
        const sent = member.sent;
        const fresh = sent ? own.filter((d) => !sent.delete(d.id)) : own;
        if (fresh.length > 0)
          this.send(socket, frame({ type: 'drops', drops: fresh } satisfies DropsMessage));
      }
    }
  }

  /** A new socket: joins the fan-out, then gets its catch-up, then what arrived meanwhile. */
  join(socket: FeedSocket, after: bigint | null, catchUp: () => Promise<DropEvent[]>): void {
    const member: Member = { pending: [], sent: null, sentUntil: 0 };
    this.members.set(socket, member);
    socket.on('close', () => {
      this.members.delete(socket);
    });
    if (this.hub) {
      this.hub.add('feed', socket);
      socket.on('message', (data) => {
        const text = messageText(data);
        if (text !== null && text.length < 256 && /"type"\s*:\s*"ping"/.test(text)) {
          this.send(socket, PONG);
        }
      });
    }

    catchUp().then(
      (drops) => {
        if (this.members.get(socket) !== member) return; // gone meanwhile
        const batch = new Set(drops.map((d) => d.id));
        const waiting = member.pending ?? [];
        member.pending = null;
        member.sent = batch.size > 0 ? batch : null;
        member.sentUntil = Date.now() + SENT_WATCH_MS;
        // a catch-up read shared by many sockets (sharedLatestDrops) is encoded once for all of them
        let data = this.catchUpFrames.get(drops);
        if (!data)
          this.catchUpFrames.set(drops, (data = frame({ type: 'drops', drops } satisfies DropsMessage)));
        this.send(socket, data);
        const rest = waiting.filter(
          (drop) => !batch.has(drop.id) && (after === null || BigInt(drop.id) > after),
        );
        if (this.batchMs > 0) {
          rest.sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
          if (rest.length > 0)
            this.send(socket, frame({ type: 'drops', drops: rest } satisfies DropsMessage));
        } else {
          for (const drop of rest) this.send(socket, frame({ type: 'drop', drop } satisfies DropMessage));
        }
      },
      (err: unknown) => {
        this.log.error({ err }, 'drops feed: the catch-up could not be read');
        this.drop(socket, DropFeedCloseCode.SERVER_ERROR, 'catch-up failed');
      },
    );
  }

  /** Sends unless the socket is closed; one too far behind is closed instead. Never waits. */
  private send(socket: FeedSocket, data: Buffer): void {
    if (socket.readyState !== OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.drop(socket, DropFeedCloseCode.TOO_SLOW, 'too slow');
      return;
    }
    sendFrame(socket, data);
  }

  private drop(socket: FeedSocket, code: number, reason: string): void {
    this.members.delete(socket);
    if (socket.readyState === OPEN) socket.close(code, reason);
    // its backlog is ahead of the close frame: do not wait for the handshake
    setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
  }

  close(): void {
    this.hub?.close();
    if (this.batchTimer) clearTimeout(this.batchTimer);
    this.batchTimer = null;
    this.members.clear();
    this.batch = [];
  }
}

/**
 * GET /ws/drops?after=<id> (WebSocket, public): {type: 'drops', drops} first (the catch-up, newest
 * first), then {type: 'drop', drop} for each copy opened on any instance. {type: 'ping'} gets
 * {type: 'pong'}. See contract/feed.ts.
 */
export function dropFeedRoutes(app: App, ctx: AppContext): void {
  const feed = new DropFanOut(app.log);
  const newest = sharedLatestDrops(ctx.db);
  const floods = new ThrottledWarning(app.log, 'drops feed: sockets closed for sending too many messages');
  const unsubscribe = ctx.bus.subscribe(DROPS_CHANNEL, (payload) => {
    const received = receivedDrop(payload);
    if (received) feed.deliver(received.drop);
    else app.log.warn('drops feed: an event of an unknown shape was ignored');
  });
  app.addHook('onClose', async () => {
    unsubscribe();
    feed.close();
    floods.flush();
  });

  app.get('/ws/drops', { websocket: true, schema: { querystring: DropFeedQuery } }, (raw, request) => {
    const { after: afterText } = request.query as DropFeedQuery;
    const after = afterText === undefined ? null : BigInt(afterText);
    limitSocketMessages(raw as unknown as Socket, ctx.config.socketMessagesPer10s, () => floods.count());
    feed.join(raw as unknown as FeedSocket, after, () =>
      after === null ? newest() : latestDrops(ctx.db, after),
    );
  });
}
