import { RaceResponse } from '../../contract/race.ts';
import type { App, AppContext } from '../context.ts';
import { raceView } from '../games/race.ts';
import { optionalViewer } from './battles.ts';

/** GET /race: the current wager race (public; with a bearer token it includes the player's own place). */
export function raceRoutes(app: App, ctx: AppContext): void {
  app.get('/race', { schema: { response: { 200: RaceResponse } } }, async (request) =>
    raceView(
      ctx.db,
      ctx.config.racePeriodSeconds,
      ctx.config.racePrizesNano,
      await optionalViewer(ctx, request),
    ),
  );
}
