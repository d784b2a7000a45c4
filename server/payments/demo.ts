import { randomUUID } from 'node:crypto';
import { Address } from '@ton/core';
import type { FastifyBaseLogger } from 'fastify';
import type { DepositMethod } from '../../contract/deposit.ts';
import type { AppContext } from '../context.ts';
import { creditDeposit } from './credit.ts';

/**
 * The demo deposit provider, for trying the deposit sheet without real money: in demo mode, for a method
 * whose real provider is not configured, a deposit is "paid" by itself after DEMO_DEPOSIT_DELAY_MS. It is
 * labelled demo everywhere (API answers, ledger kind deposit_demo, the socket message) and still goes
 * through creditOnce and the ledger like any credit (external id demo:<uuid>).
 * Scheduled credits live in memory: a restart before they land drops them (demo only).
 */
export class DemoDeposits {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly pending = new Set<Promise<unknown>>();
  private closed = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly log?: FastifyBaseLogger,
  ) {}

  get delayMs(): number {
    return this.ctx.config.demoDepositDelayMs;
  }

  /** Schedules the credit; returns its external id (the id the deposit_credited message carries). */
  schedule(
    userId: bigint,
    amountNano: bigint,
    method: DepositMethod,
    options: { ref?: string | null; externalId?: string } = {},
  ): string {
    if (this.closed) throw new Error('demo deposits are stopped');
    const externalId = options.externalId ?? newDemoCreditId();
    const ref = options.ref ?? null;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const work = creditDeposit(
        this.ctx,
        { userId, amountNano, method, externalId, demo: true, ref },
        this.log,
      ).catch((err: unknown) => this.log?.error({ err, id: externalId }, 'demo deposit failed'));
      this.pending.add(work);
      void work.finally(() => this.pending.delete(work));
    }, this.delayMs);
    this.timers.add(timer);
    return externalId;
  }

  /** Cancels credits not yet due and waits for those under way. */
  async stop(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.all([...this.pending]);
  }
}

/** A fresh external id for a demo credit. */
export function newDemoCreditId(): string {
  return `demo:${randomUUID()}`;
}

/** Shown as the TON receiving address of demo deposits: the zero account in testnet-only form. Not a wallet. */
export const DEMO_TON_ADDRESS = new Address(0, Buffer.alloc(32)).toString({
  testOnly: true,
  bounceable: true,
});
