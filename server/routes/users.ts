import { ProfileResponse } from '../../contract/users.ts';
import type { App, AppContext } from '../context.ts';
import { requireUser } from '../auth/guard.ts';
import { getUser } from '../users.ts';
import { playerAchievements } from '../games/achievements.ts';
import { levelFor, rankLadder } from '../retention/ranks.ts';

export function userRoutes(app: App, ctx: AppContext): void {
  const auth = requireUser(ctx);

  app.get(
    '/users/profile',
    { preHandler: auth, schema: { response: { 200: ProfileResponse } } },
    async (request) => {
      const user = await getUser(ctx.db, request.userId);
      return {
        stats: { openingsCount: user.openings_count },
        level: levelFor(user.openings_count),
        achievements: await playerAchievements(ctx.db, request.userId),
        ranks: await rankLadder(ctx.db, request.userId, user.openings_count),
      };
    },
  );
}
