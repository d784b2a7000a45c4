import { join } from 'node:path';
import { Kysely } from 'kysely';
import type {
  AdminResolveResponse,
  AdminWithdrawal,
  AdminWithdrawalsResponse,
  WithdrawalStatus,
} from '../contract/inventory.ts';
import type { Config } from './config.ts';
import { DatabaseLockedError, openDatabase, type Db } from './db/index.ts';
import { createBus, type EventBus } from './realtime/bus.ts';
import { publishWithdrawal } from './realtime/withdrawals.ts';
import { seedCatalogue } from './games/seed.ts';
import { announceCatalogueChange } from './games/catalogue-cache.ts';
import { HttpError } from './lib/errors.ts';
import { listAllWithdrawals, resolveWithdrawal, type WithdrawalOutcome } from './inventory/withdrawals.ts';
import {
  PROMO_USAGE,
  promoDatabase,
  promoServer,
  runPromoCommand,
  type PromoBackend,
} from './retention/promo-cli.ts';

/**
 * The operator's command line (npm run admin -- ...), working on the database directly, or, when a
 * running server holds the embedded database, through that server's operator API:
 *
 *   withdrawals list [pending|completed|failed|all]     the requests (pending by default), oldest first
 *   withdrawals complete <id> [note...]                 the items were handed over
 *   withdrawals fail <id> [note...]                     the items go back to the player's inventory
 *   catalogue reload                                    write the seed catalogue with the configured RTP
 *   promo list | promo set ...                          promo codes (server/retention/promo-cli.ts)
 *
 * Returns the exit code: 0 done, 1 refused (unknown id, not pending), 2 usage error.
 */

export const ADMIN_USAGE = `Usage: npm run admin -- <command>

  withdrawals list [pending|completed|failed|all]   list withdrawal requests (default: pending)
  withdrawals complete <id> [note...]               mark a pending request completed
  withdrawals fail <id> [note...]                   mark a pending request failed; its items go back
  catalogue reload                                  write the seed catalogue (names, prices, weights for
                                                    the configured RTP) and tell running servers to
                                                    drop their cached copy
${PROMO_USAGE}

The command works on the configured database (DATABASE_URL, or the embedded one in DATA_DIR).
The embedded database serves one process: while the server runs on it, the command goes through
the server's operator API instead, which needs the server's ADMIN_KEY in the environment.`;

export interface AdminIo {
  out(line: string): void;
  err(line: string): void;
}

const STATUSES: readonly WithdrawalStatus[] = ['pending', 'sending', 'completed', 'failed'];

function describe(w: AdminWithdrawal): string {
  const when = (w.resolvedAt ?? w.createdAt).replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  const note = w.note ? `  note: ${w.note}` : '';
  return `#${w.id}  ${w.status.padEnd(9)}  user ${w.userId}  ${w.quantity} × ${w.item.name} (${w.item.id}, ${w.item.price} TON each)  ${when}${note}`;
}

/** What the commands need: the database itself, or a running server's operator API. */
export interface AdminBackend extends PromoBackend {
  list(status: WithdrawalStatus | null): Promise<AdminWithdrawal[]>;
  resolve(id: bigint, outcome: WithdrawalOutcome, note: string | null): Promise<AdminWithdrawal>;
}

/**
 * The database itself. With a bus (the command-line tool on Postgres, whose NOTIFY reaches the running
 * servers), a resolved withdrawal is announced as the operator API does, so the player's open app updates.
 */
function databaseBackend(db: Db, bus?: EventBus, warn?: (line: string) => void): AdminBackend {
  return {
    ...promoDatabase(db),
    list: (status) => listAllWithdrawals(db, status ? { status } : {}),
    resolve: async (id, outcome, note) => {
      const withdrawal = await resolveWithdrawal(db, id, outcome, note);
      // committed already: a lost message costs only freshness (the app reads again now and then)
      if (bus) {
        await publishWithdrawal(bus, {
          userId: BigInt(withdrawal.userId),
          id: BigInt(withdrawal.id),
          status: withdrawal.status,
        }).catch((err: unknown) =>
          warn?.(`(the change was not announced to running servers: ${String(err)})`),
        );
      }
      return withdrawal;
    },
  };
}

/** The operator API of the server at `baseUrl` (http://host:port), with its key. */
function serverBackend(baseUrl: string, adminKey: string): AdminBackend {
  const call = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const res = await fetch(`${baseUrl}/api/admin${path}`, {
      ...init,
      headers: { 'x-admin-key': adminKey, ...(init.body ? { 'content-type': 'application/json' } : {}) },
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await res.json().catch(() => null)) as (T & { code?: string; message?: string }) | null;
    if (!res.ok || body === null) {
      throw new HttpError(res.status, body?.code ?? 'SERVER_ERROR', body?.message ?? `HTTP ${res.status}`);
    }
    return body;
  };
  return {
    ...promoServer(call),
    list: async (status) =>
      (await call<AdminWithdrawalsResponse>(`/withdrawals${status ? `?status=${status}` : ''}`)).withdrawals,
    resolve: async (id, outcome, note) =>
      (
        await call<AdminResolveResponse>(
          `/withdrawals/${id}/${outcome === 'completed' ? 'complete' : 'fail'}`,
          { method: 'POST', body: JSON.stringify(note === null ? {} : { note }) },
        )
      ).withdrawal,
  };
}

/**
 * Runs a command on the configured database. When a running server holds the embedded database, the
 * command goes to that server's operator API (with ADMIN_KEY), or is refused with a clear message.
 */
export async function runAdmin(args: readonly string[], config: Config, io: AdminIo): Promise<number> {
  let database;
  try {
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDir: join(config.dataDir, 'pglite'),
    });
  } catch (err) {
    if (!(err instanceof DatabaseLockedError)) throw err;
    const url = err.holder.url;
    if (!url) {
      io.err(`${err.message}\n\nThe process holding it is not serving HTTP yet; try again in a moment.`);
      return 1;
    }
    if (!config.adminKey) {
      io.err(
        `A server (process ${err.holder.pid}, ${url}) holds the embedded database, so this command would go ` +
          'through its operator API, but ADMIN_KEY is not set. Run it with the same ADMIN_KEY as the server ' +
          '(the server must have one), or stop the server first.',
      );
      return 1;
    }
    io.err(`(through the running server at ${url})`);
    return runAdminCli(args, serverBackend(url, config.adminKey), io);
  }
  // on Postgres the bus reaches running servers (NOTIFY), so a catalogue change shows without a restart and
  // a withdrawal resolved here reaches the player's open app
  const bus = await createBus(database);
  try {
    return await runAdminCli(args, database.db, io, { rtp: config.rtp, bus });
  } finally {
    await bus.close();
    await database.close();
  }
}

/**
 * What the database commands need besides the database: the RTP `catalogue reload` solves weights for, and
 * the bus that catalogue changes and resolved withdrawals are announced on.
 */
export interface AdminContext {
  rtp: number;
  bus: EventBus;
}

export async function runAdminCli(
  args: readonly string[],
  target: Db | AdminBackend,
  io: AdminIo,
  catalogue?: AdminContext,
): Promise<number> {
  const backend = target instanceof Kysely ? databaseBackend(target, catalogue?.bus, io.err) : target;
  const [group, command, ...rest] = args;
  if (group === 'catalogue' && command === 'reload' && rest.length === 0) {
    if (!catalogue || !(target instanceof Kysely)) {
      io.err(
        'catalogue reload needs the database itself: stop the server that holds the embedded database first.',
      );
      return 1;
    }
    await seedCatalogue(target, catalogue.rtp);
    await announceCatalogueChange(catalogue.bus, 'reloaded by the operator');
    io.out(`Catalogue written (RTP ${catalogue.rtp}); running servers were told to reload it.`);
    return 0;
  }
  if (group === 'promo') {
    try {
      return await runPromoCommand([command ?? '', ...rest], backend, io, ADMIN_USAGE);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      io.err(`${err.code}: ${err.message}`);
      return 1;
    }
  }
  if (group !== 'withdrawals' || !command) {
    io.err(ADMIN_USAGE);
    return 2;
  }
  try {
    if (command === 'list') {
      const which = rest[0] ?? 'pending';
      if (which !== 'all' && !STATUSES.includes(which as WithdrawalStatus)) {
        io.err(`Unknown status "${which}"\n\n${ADMIN_USAGE}`);
        return 2;
      }
      const list = await backend.list(which === 'all' ? null : (which as WithdrawalStatus));
      if (list.length === 0) io.out(`No ${which === 'all' ? '' : `${which} `}withdrawals.`);
      for (const w of list) io.out(describe(w));
      return 0;
    }
    if (command === 'complete' || command === 'fail') {
      const [id, ...noteWords] = rest;
      if (!id || !/^[1-9][0-9]{0,17}$/.test(id)) {
        io.err(`Give the withdrawal id (a positive number)\n\n${ADMIN_USAGE}`);
        return 2;
      }
      const note = noteWords.join(' ').trim() || null;
      const done = await backend.resolve(BigInt(id), command === 'complete' ? 'completed' : 'failed', note);
      io.out(describe(done));
      if (done.status === 'failed')
        io.out(`${done.quantity} × ${done.item.id} returned to user ${done.userId}.`);
      return 0;
    }
    io.err(`Unknown command "${command}"\n\n${ADMIN_USAGE}`);
    return 2;
  } catch (err) {
    if (err instanceof HttpError) {
      io.err(`${err.code}: ${err.message}`);
      return 1;
    }
    if (err instanceof TypeError || (err instanceof Error && err.name === 'TimeoutError')) {
      // fetch could not reach the running server
      io.err(`The running server did not answer: ${err.message}`);
      return 1;
    }
    throw err;
  }
}
