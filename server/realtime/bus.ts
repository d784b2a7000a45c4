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
 *   dedicated listener connection while it is up, the pool otherwise); each instance LISTENs on that
 *   connection and delivers what other instances published. A dropped
 *   listener connection reconnects with backoff (messages published meanwhile are not replayed).
 */
export interface EventBus {
  /** Sends payload to every subscriber of channel, on this instance and on every other one. */
  publish(channel: string, payload: unknown): Promise<void>;
  /**
   * Sends several payloads on one channel, in order, as publish would one by one but in one go (on
   * Postgres, publishes made while one is on its way share one statement).
   */
  publishAll(channel: string, payloads: readonly unknown[]): Promise<void>;
  /** Calls handler for every payload published on channel (from any instance); returns the unsubscribe. */
  subscribe(channel: string, handler: (payload: unknown) => void): () => void;
  /** Stops listening; later publishes are dropped. */
  close(): Promise<void>;
}

/** Postgres's limit on a NOTIFY payload is 8000 bytes; the envelope counts. */
export const MAX_MESSAGE_BYTES = 7900;
/** The one Postgres channel every bus message travels on. */
const PG_CHANNEL = 'giftcases_bus';
/** NOTIFYs sent in one statement, at most. */
const NOTIFY_CHUNK = 100;
const CHANNEL_NAME = /^[a-z][a-z0-9_.:-]{0,63}$/;

interface Envelope {
  /** the publishing instance */
  i: string;
  /** the message's number from that instance (Postgres folds equal notifications sent together) */
  n?: number;
  /** bus channel */
  c: string;
  /** payload */
  p: unknown;
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
  /** messages sent so far (each message's number) */
  private sent = 0;
  /** NOTIFYs published while a batch is on its way, and their publishers, sent next together */
  private queued: string[] = [];
  private waiting: { resolve: () => void; reject: (err: unknown) => void }[] = [];
  private sending = false;

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
    const text = this.encode(channel, payload);
    if (this.closed) return;
    this.deliver(channel, payload);
    await this.send([text]);
  }

  override async publishAll(channel: string, payloads: readonly unknown[]): Promise<void> {
    const texts = payloads.map((payload) => this.encode(channel, payload));
    if (this.closed || texts.length === 0) return;
    for (const payload of payloads) this.deliver(channel, payload);
    await this.send(texts);
  }

  /** Each message its own number, so that two equal payloads sent in one statement are never folded. */
  private encode(channel: string, payload: unknown): string {
    return encode(this.instance, channel, payload, this.sent++);
  }

  /**
   * Sends the NOTIFYs in publishing order: at once when none is on its way, otherwise together with
   * everything published meanwhile, once the one on its way is sent (one statement per NOTIFY_CHUNK
   * messages: under load, many openings' drops and balances share one round trip instead of a statement
   * each). On the listener's own connection while it is up, so a publish never waits for a pooled
   * connection: a pool busy with requests does not hold up (or time out) the feed and balance pushes.
   * Resolves when the batch holding `texts` has been sent.
   */
  private send(texts: readonly string[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queued.push(...texts);
      this.waiting.push({ resolve, reject });
      if (!this.sending) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.sending = true;
    while (this.queued.length > 0) {
      const texts = this.queued;
      const waiting = this.waiting;
      this.queued = [];
      this.waiting = [];
      try {
        await this.notify(texts);
        for (const w of waiting) w.resolve();
      } catch (err) {
        for (const w of waiting) w.reject(err);
      }
    }
    this.sending = false;
  }

  /** NOTIFYs of one statement are sent in the order they are listed. */
  private async notify(texts: readonly string[]): Promise<void> {
    for (let i = 0; i < texts.length; i += NOTIFY_CHUNK) {
      const chunk = texts.slice(i, i + NOTIFY_CHUNK);
      if (this.closed) return;
      const client = this.client;
      if (client) {
        try {
          const calls = chunk.map((_, j) => `pg_notify($1, $${j + 2})`).join(', ');
          await client.query(`SELECT ${calls}`, [PG_CHANNEL, ...chunk]);
          continue;
        } catch (err) {
          if (this.closed) return; // shutting down: the connection was ended under it
          this.log?.warn({ err }, 'bus: NOTIFY on the listener connection failed; using the pool');
        }
      }
      const notifies = chunk.map((text) => sql`pg_notify(${PG_CHANNEL}, ${text})`);
      await sql`SELECT ${sql.join(notifies)}`.execute(this.db);
    }
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (msg) => {
      if (msg.channel !== PG_CHANNEL || !msg.payload) return;
      let env: Envelope;
      try {
        env = JSON.parse(msg.payload) as Envelope;
      } catch {
        this.log?.warn('bus: a notification that is not JSON was ignored');
        return;
      }
      if (env.i === this.instance || typeof env.c !== 'string') return; // ours was delivered at publish
      this.deliver(env.c, env.p);
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

function encode(instance: string, channel: string, payload: unknown, number?: number): string {
  checkChannel(channel);
  const text = JSON.stringify({ i: instance, n: number, c: channel, p: payload } satisfies Envelope);
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
