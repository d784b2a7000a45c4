import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import { startLeasedJob, type LeasedJobHandle } from '../jobs/lease.ts';
import { payInviteShares } from './invites.ts';

/** How often the invite share job looks for an ended day to pay. */
const INVITE_SWEEP_MS = 60_000;

/**
 * The daily invite share, as a background job under the `invite-share` lease (one instance at a time): a
 * pass when it takes the lease (paying what a stopped server left) and then every minute; a pass finds
 * nothing to do until a day has ended. The ledger's unique external id per inviter and day keeps a payment
 * single even if two instances overlap in a takeover.
 */
export class InviteShareJob {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private job: LeasedJobHandle | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** One pass; errors are logged and the next pass tries again. */
  run(now = new Date()): Promise<void> {
    this.running ??= (async () => {
      try {
        const paid = await payInviteShares(this.ctx.db, this.ctx.config, now);
        if (paid > 0) this.log.info({ paid }, 'invite shares credited');
      } catch (err) {
        this.log.error({ err }, 'invite share job failed; retrying at the next pass');
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /** Competes for the lease; resolves after the first try (and this instance's first pass, if it took it). */
  async start(): Promise<void> {
    this.job = startLeasedJob(this.ctx, {
      name: 'invite-share',
      log: this.log,
      start: async () => {
        await this.run();
        this.timer = setInterval(() => void this.run(), INVITE_SWEEP_MS);
        this.timer.unref();
      },
      stop: async () => {
        if (this.timer) clearInterval(this.timer);
        this.timer = null;
        await this.running;
      },
    });
    await this.job.ready;
  }

  async close(): Promise<void> {
    await this.job?.stop();
    this.job = null;
  }
}
