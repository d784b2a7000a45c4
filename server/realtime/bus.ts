import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, OpenedDatabase } from '../db/index.ts';

/**
 * Publish/subscribe between server instances, by channel name ('deposits', 'drops', ...).
 *
 * A payload is any JSON value; its JSON text (with the envelope) must stay under MAX_MESSAGE_BYTES,
 * Postgres's NOTIFY limit. Messages from one publisher arrive in order; across publishers there is no
 * common order (an instance's own messages reach its subscribers at once, others' after a round trip through
 * the database). Delivery is at most once and only to instances running at that moment:
 * a notification is a hint to push to open sockets, never the record of anything (the database is).
 *
 * - PGlite (one process): in-process delivery.
 * - Postgres: publish() delivers in-process at once and sends NOTIFY on one shared Postgres channel (on the
 *   dedicated listener connection while it is up, the pool otherwise; what is published while a NOTIFY
 *   statement runs leaves together in the next one, packed several to a notification); each instance LISTENs on that
 *   connection and delivers what other instances published. A dropped
 *   listener connection reconnects with backoff (messages published meanwhile are not replayed).
 */
export interface EventBus {
  /** Sends payload to every subscriber of channel, on this instance and on every other one. */
  publish(channel: string, payload: unknown): Promise<void>;
  /**
   * Sends several payloads on one channel, in order, as publish would one by one but in one go (one
   * statement on Postgres).
   */
  publishAll(channel: string, payloads: readonly unknown[]): Promise<void>;
  /** Calls handler for every payload published on channel (from any instance); returns the unsubscribe. */
  subscribe(channel: string, handler: (payload: unknown) => void): () => void;
  /** Stops listening; later publishes are dropped. */
  close(): Promise<void>;
}

/** Postgres's limit on a NOTIFY payload is 8000 bytes; the envelope counts. */
export const MAX_MESSAGE_BYTES = 7900;
/** Most messages sent in one statement (packed several to a notification, see pack). */
const MAX_NOTIFIES_PER_STATEMENT = 200;
/** The one Postgres channel every bus message travels on. */
const PG_CHANNEL = 'giftcases_bus';
const CHANNEL_NAME = /^[a-z][a-z0-9_.:-]{0,63}$/;

interface Envelope {
  /** the publishing instance */
  i: string;
  /** bus channel */
  c: string;
  /** payload */
  p: unknown;
  /** the publisher's sequence number */
  n: number;
}

/** In-process delivery shared by both implementations. */
class LocalBus implements EventBus {
  protected readonly emitter = new EventEmitter();
  protected closed = false;

  constructor(protected readonly log?: FastifyBaseLogger) {
    this.emitter.setMaxListeners(0);
  }

  async publish(channel: string, payload: unknown): Promise<void> {
    encode('local', channel, payload); // same checks as across instances, so code written on PGlite holds on Postgres
    this.deliver(channel, payload);
  }

  async publishAll(channel: string, payloads: readonly unknown[]): Promise<void> {
    for (const payload of payloads) encode('local', channel, payload);
    for (const payload of payloads) this.deliver(channel, payload);
  }

  subscribe(channel: string, handler: (payload: unknown) => void): () => void {
    checkChannel(channel);
    const safe = (payload: unknown) => {
      try {
        handler(payload);
      } catch (err) {
        this.log?.error({ err, channel }, 'bus subscriber failed');
      }
    };
    this.emitter.on(channel, safe);
    return () => {
      this.emitter.off(channel, safe);
    };
  }

  protected deliver(channel: string, payload: unknown): void {
    if (this.closed) return;
    this.emitter.emit(channel, payload);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.emitter.removeAllListeners();
  }
}

class PostgresBus extends LocalBus {
  private readonly instance = randomUUID();
  private client: pg.Client | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private failures = 0;
  private readonly dropped = new WeakSet<pg.Client>();
  /** numbers this instance's messages: no two are equal, so Postgres never folds two into one */
  private sequence = 0;
  private readonly outbox: { texts: string[]; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private draining = false;
  /** how this instance's own notifications begin (they were delivered at publish: skipped unparsed) */
  private readonly ownPrefix = `{"i":"${this.instance}"`;

  constructor(
    private readonly db: Db,
    private readonly url: string,
    log?: FastifyBaseLogger,
  ) {
    super(log);
  }

  /** Connects the listener; a failure is logged and retried in the background. */
  async start(): Promise<void> {
    await this.connect();
  }

  override async publish(channel: string, payload: unknown): Promise<void> {
    const text = encode(this.instance, channel, payload, this.sequence++);
    if (this.closed) return;
    this.deliver(channel, payload);
    await this.notify([text]);
  }

  /** One statement for all of them: NOTIFYs of one statement are sent in the order they are listed. */
  override async publishAll(channel: string, payloads: readonly unknown[]): Promise<void> {
    const texts = payloads.map((payload) => encode(this.instance, channel, payload, this.sequence++));
    if (this.closed || texts.length === 0) return;
    for (const payload of payloads) this.deliver(channel, payload);
    await this.notify(texts);
  }

  /**
   * Queues NOTIFYs: one statement at a time, holding whatever was queued while the previous one ran (at
   * most MAX_NOTIFIES_PER_STATEMENT), so hundreds of publishes a second cost a few statements, in order.
   */
  private notify(texts: string[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.outbox.push({ texts, resolve, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    while (this.outbox.length > 0) {
      const batch = [this.outbox.shift()!];
      let count = batch[0]!.texts.length;
      while (this.outbox.length > 0 && count + this.outbox[0]!.texts.length <= MAX_NOTIFIES_PER_STATEMENT) {
        const next = this.outbox.shift()!;
        count += next.texts.length;
        batch.push(next);
      }
      try {
        await this.send(batch.flatMap((entry) => entry.texts));
        for (const entry of batch) entry.resolve();
      } catch (err) {
        for (const entry of batch) entry.reject(err);
      }
    }
    this.draining = false;
  }

  private async send(messages: string[]): Promise<void> {
    const texts = pack(messages);
    // on the listener's own connection when it is up: a publish never waits for a pooled connection, so
    // a pool busy with requests does not hold up (or time out) the feed and balance pushes
    const client = this.client;
    if (client) {
      try {
        const calls = texts.map((_, i) => `pg_notify($1, $${i + 2})`).join(', ');
        await client.query(`SELECT ${calls}`, [PG_CHANNEL, ...texts]);
        return;
      } catch (err) {
        if (this.closed) return; // shutting down: the connection was ended under it
        this.log?.warn({ err }, 'bus: NOTIFY on the listener connection failed; using the pool');
      }
    }
    if (this.closed) return;
    const notifies = texts.map((text) => sql`pg_notify(${PG_CHANNEL}, ${text})`);
    await sql`SELECT ${sql.join(notifies)}`.execute(this.db);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (msg) => {
      const text = msg.payload;
      // ours were delivered at publish: skipped unparsed (a pack holds one publisher's messages only)
      if (
        msg.channel !== PG_CHANNEL ||
        !text ||
        text.startsWith(this.ownPrefix, text.startsWith('[') ? 1 : 0)
      ) {
        return;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        this.log?.warn('bus: a notification that is not JSON was ignored');
        return;
      }
      for (const env of (Array.isArray(parsed) ? parsed : [parsed]) as Envelope[]) {
        if (!env || env.i === this.instance || typeof env.c !== 'string') continue;
        this.deliver(env.c, env.p);
      }
    });
    client.on('error', (err) => {
      this.log?.warn({ err }, 'bus: listener connection failed');
      this.reconnect(client);
    });
    client.on('end', () => this.reconnect(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${PG_CHANNEL}`);
      if (this.closed) {
        await client.end().catch(() => {});
        return;
      }
      this.client = client;
      this.failures = 0;
    } catch (err) {
      this.log?.error({ err }, 'bus: cannot LISTEN; retrying');
      this.reconnect(client);
    }
  }

  private reconnect(failed: pg.Client): void {
    if (this.dropped.has(failed)) return;
    this.dropped.add(failed);
    if (this.client === failed) this.client = null;
    void failed.end().catch(() => {});
    if (this.closed || this.retryTimer) return;
    this.failures += 1;
    const delay = Math.min(30_000, 250 * 2 ** Math.min(this.failures, 7));
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, delay);
    this.retryTimer.unref();
  }

  override async close(): Promise<void> {
    await super.close();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const client = this.client;
    this.client = null;
    if (client) {
      this.dropped.add(client);
      await client.end().catch(() => {});
    }
  }
}

function checkChannel(channel: string): void {
  if (!CHANNEL_NAME.test(channel)) throw new RangeError(`bad bus channel name: ${channel}`);
}

/**
 * Packs messages (envelopes' JSON texts, each within MAX_MESSAGE_BYTES) into as few notification payloads
 * as fit, in order: a message alone is sent as it is, several as a JSON array of them. Every notification
 * goes through Postgres's one queue to every listening instance, this one included (which skips its own),
 * so a busy second's thousands of drops and balances cost tens of notifications, not thousands.
 */
export function pack(messages: readonly string[]): string[] {
  const packs: string[] = [];
  let group: string[] = [];
  let bytes = 0;
  const close = () => {
    if (group.length === 1) packs.push(group[0]!);
    else if (group.length > 1) packs.push(`[${group.join(',')}]`);
    group = [];
    bytes = 0;
  };
  for (const message of messages) {
    const size = Buffer.byteLength(message);
    // the brackets and one comma per message: a pack stays within MAX_MESSAGE_BYTES like any message
    if (group.length > 0 && bytes + size + 1 + 2 > MAX_MESSAGE_BYTES) close();
    group.push(message);
    bytes += size + 1;
  }
  close();
  return packs;
}

function encode(instance: string, channel: string, payload: unknown, sequence = 0): string {
  checkChannel(channel);
  const text = JSON.stringify({ i: instance, c: channel, p: payload, n: sequence } satisfies Envelope);
  if (text === undefined) throw new TypeError('a bus payload must be JSON');
  if (Buffer.byteLength(text) > MAX_MESSAGE_BYTES) {
    throw new RangeError(`bus message on ${channel} is over ${MAX_MESSAGE_BYTES} bytes`);
  }
  return text;
}

/** The bus for this database: LISTEN/NOTIFY on Postgres, in-process on PGlite. */
export async function createBus(database: OpenedDatabase, log?: FastifyBaseLogger): Promise<EventBus> {
  if (database.kind === 'postgres' && database.databaseUrl) {
    const bus = new PostgresBus(database.db, database.databaseUrl, log);
    await bus.start();
    return bus;
  }
  return new LocalBus(log);
}
