import { Address } from '@ton/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import { startLeasedJob, type LeasedJobHandle } from '../jobs/lease.ts';
import { CryptoPayClient } from './cryptopay.ts';
import { DemoDeposits } from './demo.ts';
import { TonWatcher } from './ton-watcher.ts';

/** How a deposit method works on this server: the real provider, the demo provider, or not at all. */
type MethodMode = 'real' | 'demo' | 'off';

/** Demo deposits are on in demo mode for a method whose real provider is not configured. */
function depositModes(config: Config, demo: boolean): { ton: MethodMode; cryptobot: MethodMode } {
  const mode = (configured: boolean): MethodMode => (configured ? 'real' : demo ? 'demo' : 'off');
  return { ton: mode(!!config.tonDepositAddress), cryptobot: mode(!!config.cryptoPayToken) };
}

/**
 * The receiving address as players are shown it: a user-friendly address as configured, a raw one turned
 * into the bounceable user-friendly form (test-only on a testnet toncenter). Bounceable on purpose: a
 * transfer to an undeployed wallet then returns to the sender instead of being stuck uncredited.
 */
export function publicTonAddress(config: Config): string | null {
  const raw = config.tonDepositAddress;
  if (!raw) return null;
  if (Address.isFriendly(raw)) {
    const { address, isBounceable, isTestOnly } = Address.parseFriendly(raw);
    return address.toString({ bounceable: isBounceable, testOnly: isTestOnly });
  }
  return Address.parse(raw).toString({ bounceable: true, testOnly: /testnet/i.test(config.toncenterUrl) });
}

/** The deposit services of one instance. */
export interface Payments {
  modes: { ton: MethodMode; cryptobot: MethodMode };
  tonWatcher: TonWatcher | null;
  cryptoPay: CryptoPayClient | null;
  demo: DemoDeposits;
  /**
   * Starts the TON watcher (when a receiving address is configured) as the background job 'ton-watcher':
   * it polls on the one instance holding the job's lease (server/jobs/lease.ts).
   */
  start(): void;
  /** stops the watcher and the demo timers, waiting for database work under way */
  stop(): Promise<void>;
}

/** Builds the deposit services of this instance; start() begins watching the chain. */
export function createPayments(ctx: AppContext, log?: FastifyBaseLogger): Payments {
  const { config } = ctx;
  const modes = depositModes(config, ctx.demo);
  const tonWatcher = config.tonDepositAddress
    ? new TonWatcher(ctx, {
        address: config.tonDepositAddress,
        toncenter: { url: config.toncenterUrl, apiKey: config.toncenterApiKey },
        intervalMs: config.tonPollIntervalMs,
        pageLimit: config.tonPageLimit,
        maxBackoffMs: config.tonMaxBackoffMs,
        log,
      })
    : null;
  const cryptoPay = config.cryptoPayToken
    ? new CryptoPayClient({ url: config.cryptoPayUrl, token: config.cryptoPayToken })
    : null;
  const demo = new DemoDeposits(ctx, log);
  let watcherJob: LeasedJobHandle | null = null;
  return {
    modes,
    tonWatcher,
    cryptoPay,
    demo,
    start() {
      if (tonWatcher && !watcherJob) {
        watcherJob = startLeasedJob(ctx, {
          name: 'ton-watcher',
          log,
          start: () => tonWatcher.start(),
          stop: () => tonWatcher.stop(),
        });
      }
      if (modes.ton === 'demo' || modes.cryptobot === 'demo') {
        log?.warn(
          { ton: modes.ton, cryptobot: modes.cryptobot },
          'DEMO DEPOSITS: deposits without a configured provider are simulated and credited after a delay',
        );
      }
    },
    async stop() {
      await Promise.all([watcherJob?.stop(), demo.stop()]);
    },
  };
}
