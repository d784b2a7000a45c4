import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import { namedCases } from './config.ts';
import { InviteShareJob } from './job.ts';
import { setRankTable } from './ranks.ts';

/**
 * Wires the retention settings into the app: the rank table the opening transaction grants rewards from,
 * a check that every case the wheel or the rank table names is in the catalogue (a typo stops the start
 * with a clear message instead of failing a player's spin), and the daily invite share job.
 */
export async function startRetention(ctx: AppContext, log: FastifyBaseLogger): Promise<InviteShareJob> {
  const { retention } = ctx.config;
  setRankTable(retention.ranks);
  const wanted = namedCases(retention);
  if (wanted.length > 0) {
    const found = new Set(
      (await ctx.db.selectFrom('cases').select('id').where('id', 'in', wanted).execute()).map((r) => r.id),
    );
    const missing = wanted.filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw new Error(
        `WHEEL_PRIZES or RANK_TABLE names cases that are not in the catalogue: ${missing.join(', ')}`,
      );
    }
  }
  return new InviteShareJob(ctx, log);
}
