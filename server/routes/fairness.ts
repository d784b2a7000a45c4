import { FairnessState, RotateResponse, SetClientSeedRequest } from '../../contract/cases.ts';
import type { App, AppContext } from '../context.ts';
import { requireUser } from '../auth/guard.ts';
import { getUser } from '../users.ts';
import { fairnessState, rotateSeed, setClientSeed } from '../games/fairness.ts';

/** The player's seed pair: see the commitment, choose a client seed, rotate to reveal the server seed. */
export function fairnessRoutes(app: App, ctx: AppContext): void {
  const auth = requireUser(ctx);

  app.get(
    '/fairness',
    { preHandler: auth, schema: { response: { 200: FairnessState } } },
    async (request) => {
      await getUser(ctx.db, request.userId);
      return fairnessState(ctx.db, request.userId);
    },
  );

  app.put(
    '/fairness/client-seed',
    { preHandler: auth, schema: { body: SetClientSeedRequest, response: { 200: FairnessState } } },
    async (request) => {
      await getUser(ctx.db, request.userId);
      return setClientSeed(ctx.db, request.userId, request.body.clientSeed);
    },
  );

  app.post(
    '/fairness/rotate',
    { preHandler: auth, schema: { response: { 200: RotateResponse } } },
    async (request) => {
      await getUser(ctx.db, request.userId);
      return rotateSeed(ctx.db, request.userId);
    },
  );
}
