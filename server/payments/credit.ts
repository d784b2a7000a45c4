import type { FastifyBaseLogger } from 'fastify';
import type { DepositMethod } from '../../contract/deposit.ts';
import type { AppContext } from '../context.ts';
import { creditDepositWithBonus } from '../retention/promo.ts';
import { publishDeposit } from '../realtime/deposits.ts';
import { enqueueNotification } from '../telegram/outbox.ts';
import { formatTon } from '../../contract/money.ts';

export interface DepositCredit {
  userId: bigint;
  amountNano: bigint;
  method: DepositMethod;
  /** unique per credit: ton:<hash>, cryptopay:<invoice id>, demo:<uuid> */
  externalId: string;
  demo?: boolean;
  /** free reference kept on the ledger row (sender address, our invoice id) */
  ref?: string | null;
}

const KIND: Record<DepositMethod, string> = { ton: 'deposit_ton', cryptobot: 'deposit_cryptobot' };

/**
 * Credits a deposit once per external id (creditOnce: balance and ledger row in one transaction) and, when
 * this call made the credit, tells the player's sockets on every instance. Returns whether it credited.
 * Two instances settling the same deposit at once both pass creditOnce's look-up; the unique external id
 * makes the second insert fail, which is the same answer as a replay: nothing credited.
 */
export async function creditDeposit(
  ctx: AppContext,
  credit: DepositCredit,
  log?: FastifyBaseLogger,
): Promise<boolean> {
  const kind = credit.demo ? 'deposit_demo' : KIND[credit.method];
  let outcome: Awaited<ReturnType<typeof creditDepositWithBonus>>;
  try {
    // the deposit and the bonus of a promo code waiting for it, in one transaction
    outcome = await creditDepositWithBonus(ctx.db, {
      userId: credit.userId,
      amountNano: credit.amountNano,
      kind,
      externalId: credit.externalId,
      ref: credit.ref ?? null,
      // the bot tells the player, from its outbox (written with the credit)
      alongside: (trx) =>
        enqueueNotification(
          trx,
          credit.userId,
          'deposit_credited',
          { amount: formatTon(credit.amountNano) },
          `deposit:${credit.externalId}`,
        ),
    });
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
  if (!outcome.credited) return false;
  log?.info(
    {
      userId: credit.userId.toString(),
      amountNano: credit.amountNano.toString(),
      bonusNano: outcome.bonusNano.toString(),
      id: credit.externalId,
    },
    'deposit credited',
  );
  try {
    await publishDeposit(ctx.bus, {
      userId: credit.userId.toString(),
      amountNano: credit.amountNano.toString(),
      balanceNano: outcome.balanceNano.toString(),
      bonusNano: outcome.bonusNano.toString(),
      promoCode: outcome.code,
      method: credit.method,
      id: credit.externalId,
      demo: credit.demo ?? false,
    });
  } catch (err) {
    // the money is in; a lost notification only means the client learns it from its balance poll
    log?.warn({ err, id: credit.externalId }, 'deposit notification failed');
  }
  return true;
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}
