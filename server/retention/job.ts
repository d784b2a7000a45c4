import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import { payInviteShares } from './invites.ts';

/** How often the invite share job looks for an ended day to pay. */
const INVITE_SWEEP_MS = 60_000;

/**
 * The daily invite share, as a background job: a pass at start (paying what a stopped server left) and
 * then every minute; a pass finds nothing to do until a day has ended. Every instance runs it: the ledger's
 * unique external id per inviter and day makes a second payment credit nothing.
 */
export class InviteShareJob {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private closed = false;

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

  async start(): Promise<void> {
    await this.run();
    if (this.closed) return;
    this.timer = setInterval(() => void this.run(), INVITE_SWEEP_MS);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
