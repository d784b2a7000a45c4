import type { AdminWithdrawal, WithdrawalStatus } from '../contract/inventory.ts';
import type { Db } from './db/index.ts';
import type { EventBus } from './realtime/bus.ts';
import { seedCatalogue } from './games/seed.ts';
import { announceCatalogueChange } from './games/catalogue-cache.ts';
import { HttpError } from './lib/errors.ts';
import { listAllWithdrawals, resolveWithdrawal } from './inventory/withdrawals.ts';

/**
 * The operator's command line (npm run admin -- ...), working on the database directly:
 *
 *   withdrawals list [pending|completed|failed|all]     the requests (pending by default), oldest first
 *   withdrawals complete <id> [note...]                 the items were handed over
 *   withdrawals fail <id> [note...]                     the items go back to the player's inventory
 *   catalogue reload                                    write the seed catalogue with the configured RTP
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

The command works on the configured database (DATABASE_URL, or the embedded one in DATA_DIR).
The embedded database is single-process: stop the server before using this command with it, or use
the operator API (/api/admin/..., header x-admin-key) while the server runs.`;

export interface AdminIo {
  out(line: string): void;
  err(line: string): void;
}

const STATUSES: readonly WithdrawalStatus[] = ['pending', 'completed', 'failed'];

function describe(w: AdminWithdrawal): string {
  const when = (w.resolvedAt ?? w.createdAt).replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  const note = w.note ? `  note: ${w.note}` : '';
  return `#${w.id}  ${w.status.padEnd(9)}  user ${w.userId}  ${w.quantity} × ${w.item.name} (${w.item.id}, ${w.item.price} TON each)  ${when}${note}`;
}

/** What `catalogue reload` needs besides the database: the RTP to solve weights for, the bus to announce on. */
export interface CatalogueAdmin {
  rtp: number;
  bus: EventBus;
}

export async function runAdminCli(
  args: readonly string[],
  db: Db,
  io: AdminIo,
  catalogue?: CatalogueAdmin,
): Promise<number> {
  const [group, command, ...rest] = args;
  if (group === 'catalogue' && command === 'reload' && rest.length === 0 && catalogue) {
    await seedCatalogue(db, catalogue.rtp);
    await announceCatalogueChange(catalogue.bus, 'reloaded by the operator');
    io.out(`Catalogue written (RTP ${catalogue.rtp}); running servers were told to reload it.`);
    return 0;
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
      const list = await listAllWithdrawals(db, which === 'all' ? {} : { status: which as WithdrawalStatus });
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
      const done = await resolveWithdrawal(
        db,
        BigInt(id),
        command === 'complete' ? 'completed' : 'failed',
        note,
      );
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
    throw err;
  }
}
