import { sql, type Selectable, type Transaction } from 'kysely';
import type {
  PendingPromo,
  PromoApplyResponse,
  PromoCodeInput,
  PromoCodeView,
} from '../../contract/retention.ts';
import { formatTon, tryParseTon } from '../../contract/money.ts';
import type { Db } from '../db/index.ts';
import type { Database, PromoCodesTable } from '../db/schema.ts';
import { lockPlayer } from '../db/locks.ts';
import { HttpError, badRequest, conflict, notFound } from '../lib/errors.ts';
import { creditInTransaction, credited } from './ledger.ts';

/**
 * Promo codes (README, "Promo codes"). An operator creates codes (admin API, `npm run admin -- promo`):
 *
 * - `deposit_percent`: a bonus of `percent` of the player's next deposit (at most `maxBonus`), credited in
 *   the deposit's own transaction as a separate `promo_bonus` ledger row (external id `promo:<deposit id>`);
 * - `credit`: a fixed amount credited at once (`promo_bonus`, external id `promo:<code>:<player>`).
 *
 * A player uses a code once (the redemption's primary key is code + player). A code with `maxUses` is
 * used by at most that many players: the use is counted by one conditional UPDATE of the code's row
 * (uses < max_uses), which concurrent players' transactions take in turn, so a race can never pass the
 * limit. An expired or switched-off code is refused; a deposit bonus whose code has expired by the time
 * the deposit lands is not paid (the redemption is closed as expired). Lock order: the player's row first,
 * then the code's row.
 */

type Trx = Transaction<Database>;
type CodeRow = Selectable<PromoCodesTable>;

const LEDGER_KIND_PROMO_BONUS = 'promo_bonus';

/** Codes are kept in capitals; a player may type them in any case. */
function normalizeCode(code: string): string {
  return code.trim().toUpperCase();
}

const CODE_RE = /^[A-Z0-9_-]{3,32}$/;

const percentOf = (bp: number) => bp / 100;

function pendingView(row: CodeRow): PendingPromo {
  return {
    code: row.code,
    percent: percentOf(row.percent_bp),
    maxBonus: row.max_bonus_nano === null ? null : formatTon(row.max_bonus_nano),
    expiresAt: row.expires_at?.toISOString() ?? null,
  };
}

function codeView(row: CodeRow): PromoCodeView {
  return {
    code: row.code,
    kind: row.kind,
    percent: percentOf(row.percent_bp),
    amount: formatTon(row.amount_nano),
    maxBonus: row.max_bonus_nano === null ? null : formatTon(row.max_bonus_nano),
    maxUses: row.max_uses,
    uses: row.uses,
    expiresAt: row.expires_at?.toISOString() ?? null,
    active: row.active,
  };
}

const unknownCode = () => notFound('PROMO_NOT_FOUND', 'There is no such promo code');

/** POST /promo/apply, inside the request's transaction (withIdempotency). */
export async function applyPromo(
  trx: Trx,
  userId: bigint,
  typed: string,
  now = new Date(),
): Promise<PromoApplyResponse> {
  const code = normalizeCode(typed);
  if (!CODE_RE.test(code)) throw unknownCode();
  await lockPlayer(trx, userId); // the player first (server/db/locks.ts), then the code
  const mine = await trx
    .selectFrom('promo_redemptions')
    .selectAll()
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('code', '=', code), eb('status', '=', 'pending')]))
    .execute();
  const same = mine.find((r) => r.code === code);
  const balance = async () =>
    (await trx.selectFrom('users').select('balance_nano').where('id', '=', userId).executeTakeFirstOrThrow())
      .balance_nano;
  if (same?.status === 'pending') {
    // entered again while it waits for the deposit: nothing new, the same answer
    const row = await trx
      .selectFrom('promo_codes')
      .selectAll()
      .where('code', '=', code)
      .executeTakeFirstOrThrow();
    return {
      code,
      kind: row.kind,
      pending: pendingView(row),
      credited: null,
      balance: formatTon(await balance()),
    };
  }
  if (same) throw conflict('PROMO_ALREADY_USED', 'You have already used this promo code');

  const row = await trx.selectFrom('promo_codes').selectAll().where('code', '=', code).executeTakeFirst();
  if (!row) throw unknownCode();
  if (!row.active) throw conflict('PROMO_INACTIVE', 'This promo code is not active');
  if (row.expires_at && row.expires_at.getTime() <= now.getTime()) {
    throw conflict('PROMO_EXPIRED', 'This promo code has expired');
  }
  const waiting = mine.find((r) => r.status === 'pending');
  if (row.kind === 'deposit_percent' && waiting) {
    throw conflict(
      'PROMO_PENDING',
      `The code ${waiting.code} is already waiting for your next deposit: use it first`,
    );
  }
  // count the use: refused when the limit is reached (concurrent players take the row in turn)
  const counted = await trx
    .updateTable('promo_codes')
    .set((eb) => ({ uses: eb('uses', '+', 1), updated_at: now }))
    .where('code', '=', code)
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))]))
    .returningAll()
    .executeTakeFirst();
  if (!counted) throw conflict('PROMO_EXHAUSTED', 'This promo code has been used up');

  if (counted.kind === 'deposit_percent') {
    await trx
      .insertInto('promo_redemptions')
      .values({ code, user_id: userId, status: 'pending', created_at: now })
      .execute();
    return {
      code,
      kind: counted.kind,
      pending: pendingView(counted),
      credited: null,
      balance: formatTon(await balance()),
    };
  }
  const externalId = `promo:${code}:${userId}`;
  if (await credited(trx, externalId))
    throw conflict('PROMO_ALREADY_USED', 'You have already used this promo code');
  const paid = await creditInTransaction(
    trx,
    userId,
    counted.amount_nano,
    LEDGER_KIND_PROMO_BONUS,
    externalId,
    code,
  );
  await trx
    .insertInto('promo_redemptions')
    .values({
      code,
      user_id: userId,
      status: 'credited',
      bonus_nano: counted.amount_nano,
      ledger_id: paid.ledgerId,
      created_at: now,
      settled_at: now,
    })
    .execute();
  return {
    code,
    kind: counted.kind,
    pending: null,
    credited: formatTon(counted.amount_nano),
    balance: formatTon(paid.balanceNano),
  };
}

/** GET /promo: the code waiting for the player's next deposit, if any. */
export async function pendingPromo(db: Db, userId: bigint): Promise<PendingPromo | null> {
  const row = await db
    .selectFrom('promo_redemptions as r')
    .innerJoin('promo_codes as c', 'c.code', 'r.code')
    .selectAll('c')
    .where('r.user_id', '=', userId)
    .where('r.status', '=', 'pending')
    .executeTakeFirst();
  return row ? pendingView(row) : null;
}

/**
 * The deposit's bonus, inside the deposit's transaction (the player's row locked): the player's waiting
 * deposit_percent code pays floor(deposit × percent) (at most its maxBonus) as its own ledger row. Returns
 * the bonus credited (0 when none) and the balance after.
 */
async function payDepositBonus(
  trx: Trx,
  userId: bigint,
  depositNano: bigint,
  depositId: string,
  balanceNano: bigint,
  now = new Date(),
): Promise<{ bonusNano: bigint; code: string | null; balanceNano: bigint }> {
  const none = { bonusNano: 0n, code: null, balanceNano };
  const waiting = await trx
    .selectFrom('promo_redemptions as r')
    .innerJoin('promo_codes as c', 'c.code', 'r.code')
    .select(['r.code', 'c.percent_bp', 'c.max_bonus_nano', 'c.expires_at', 'c.active'])
    .where('r.user_id', '=', userId)
    .where('r.status', '=', 'pending')
    .executeTakeFirst();
  if (!waiting) return none;
  const settle = (set: { status: 'credited' | 'expired'; bonus_nano?: bigint; ledger_id?: bigint }) =>
    trx
      .updateTable('promo_redemptions')
      .set({ ...set, deposit_id: depositId, settled_at: now })
      .where('code', '=', waiting.code)
      .where('user_id', '=', userId)
      .execute();
  if (!waiting.active || (waiting.expires_at && waiting.expires_at.getTime() <= now.getTime())) {
    await settle({ status: 'expired' });
    return none;
  }
  let bonus = (depositNano * BigInt(waiting.percent_bp)) / 10_000n;
  if (waiting.max_bonus_nano !== null && bonus > waiting.max_bonus_nano) bonus = waiting.max_bonus_nano;
  const externalId = `promo:${depositId}`;
  if (bonus <= 0n || (await credited(trx, externalId))) {
    await settle({ status: 'credited', bonus_nano: 0n });
    return none;
  }
  const paid = await creditInTransaction(
    trx,
    userId,
    bonus,
    LEDGER_KIND_PROMO_BONUS,
    externalId,
    waiting.code,
  );
  await settle({ status: 'credited', bonus_nano: bonus, ledger_id: paid.ledgerId });
  return { bonusNano: bonus, code: waiting.code, balanceNano: paid.balanceNano };
}

// ── the operator's side ───────────────────────────────────────────────────────────────────────────────

export async function listPromoCodes(db: Db): Promise<PromoCodeView[]> {
  const rows = await db.selectFrom('promo_codes').selectAll().orderBy('created_at').orderBy('code').execute();
  return rows.map(codeView);
}

/** Creates or changes a code (PUT /admin/promo-codes/:code, `npm run admin -- promo set`). */
export async function upsertPromoCode(db: Db, typed: string, input: PromoCodeInput): Promise<PromoCodeView> {
  const code = normalizeCode(typed);
  if (!CODE_RE.test(code)) {
    throw badRequest('PROMO_CODE_INVALID', 'A code is 3 to 32 letters, digits, "_" or "-"');
  }
  let percentBp = 0;
  let amountNano = 0n;
  let maxBonusNano: bigint | null = null;
  if (input.kind === 'deposit_percent') {
    if (input.percent === undefined || input.amount !== undefined) {
      throw badRequest('PROMO_INPUT_INVALID', 'A deposit_percent code needs percent (and no amount)');
    }
    percentBp = Math.round(input.percent * 100);
    if (!(percentBp > 0) || Math.abs(percentBp - input.percent * 100) > 1e-6) {
      throw badRequest('PROMO_INPUT_INVALID', 'percent must be above 0 with at most 2 decimals');
    }
    if (input.maxBonus !== undefined && input.maxBonus !== null) {
      maxBonusNano = tryParseTon(input.maxBonus);
      if (maxBonusNano === null || maxBonusNano <= 0n) {
        throw badRequest('PROMO_INPUT_INVALID', 'maxBonus must be a positive TON amount');
      }
    }
  } else {
    if (input.amount === undefined || input.percent !== undefined || input.maxBonus) {
      throw badRequest('PROMO_INPUT_INVALID', 'A credit code needs amount (and no percent or maxBonus)');
    }
    amountNano = tryParseTon(input.amount) ?? -1n;
    if (amountNano <= 0n) throw badRequest('PROMO_INPUT_INVALID', 'amount must be a positive TON amount');
  }
  const values = {
    kind: input.kind,
    percent_bp: percentBp,
    amount_nano: amountNano,
    max_bonus_nano: maxBonusNano,
    max_uses: input.maxUses ?? null,
    expires_at: input.expiresAt ? new Date(input.expiresAt) : null,
    active: input.active ?? true,
  };
  try {
    const row = await db
      .insertInto('promo_codes')
      .values({ code, ...values })
      .onConflict((oc) => oc.column('code').doUpdateSet({ ...values, updated_at: sql<Date>`now()` }))
      .returningAll()
      .executeTakeFirstOrThrow();
    return codeView(row);
  } catch (err) {
    // the uses-within-limit check: a limit below the uses already counted
    if ((err as { code?: unknown }).code === '23514') {
      throw new HttpError(409, 'PROMO_LIMIT_BELOW_USES', 'maxUses is below the uses already counted');
    }
    throw err;
  }
}

/**
 * A deposit's credit with its promo bonus, in one transaction: the deposit once per external id (a replay
 * credits nothing), then the waiting code's bonus as its own ledger row. Used by every deposit path
 * (server/payments/credit.ts: TON, CryptoBot, demo).
 */
export async function creditDepositWithBonus(
  db: Db,
  credit: {
    userId: bigint;
    amountNano: bigint;
    kind: string;
    externalId: string;
    ref: string | null;
    /** more writes in the credit's transaction (the bot's notification of it) */
    alongside?: (trx: Transaction<Database>) => Promise<void>;
  },
): Promise<{ credited: boolean; bonusNano: bigint; code: string | null; balanceNano: bigint }> {
  if (credit.amountNano <= 0n) throw new RangeError('a credit must be positive');
  return db.transaction().execute(async (trx) => {
    await lockPlayer(trx, credit.userId); // the player first (server/db/locks.ts), then the ledger
    if (await credited(trx, credit.externalId)) {
      return { credited: false, bonusNano: 0n, code: null, balanceNano: 0n };
    }
    const deposit = await creditInTransaction(
      trx,
      credit.userId,
      credit.amountNano,
      credit.kind,
      credit.externalId,
      credit.ref,
    );
    const bonus = await payDepositBonus(
      trx,
      credit.userId,
      credit.amountNano,
      credit.externalId,
      deposit.balanceNano,
    );
    await credit.alongside?.(trx);
    return { credited: true, ...bonus };
  });
}
