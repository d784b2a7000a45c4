import type { AdminWithdrawal, WithdrawalStatus } from '../contract/inventory.ts';
import type { Db } from './db/index.ts';
import { HttpError } from './lib/errors.ts';
import { listAllWithdrawals, resolveWithdrawal } from './inventory/withdrawals.ts';

/**
 * The operator's command line (npm run admin -- ...), working on the database directly:
 *
 *   withdrawals list [pending|completed|failed|all]     the requests (pending by default), oldest first
 *   withdrawals complete <id> [note...]                 the items were handed over
 *   withdrawals fail <id> [note...]                     the items go back to the player's inventory
 *
 * Returns the exit code: 0 done, 1 refused (unknown id, not pending), 2 usage error.
 */

export const ADMIN_USAGE = `Usage: npm run admin -- <command>

  withdrawals list [pending|completed|failed|all]   list withdrawal requests (default: pending)
  withdrawals complete <id> [note...]               mark a pending request completed
  withdrawals fail <id> [note...]                   mark a pending request failed; its items go back

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

export async function runAdminCli(args: readonly string[], db: Db, io: AdminIo): Promise<number> {
  const [group, command, ...rest] = args;
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
