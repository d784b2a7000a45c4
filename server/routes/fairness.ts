import { ApiError } from '../../contract/common.ts';
import {
  FairnessState,
  RotateResponse,
  SetClientSeedRequest,
  SetClientSeedResponse,
} from '../../contract/cases.ts';
import {
  BetHistoryQuery,
  BetHistoryResponse,
  BetParams,
  BetProof,
  TableParams,
  WeightTable,
} from '../../contract/fairness.ts';
import type { App, AppContext } from '../context.ts';
import { requireUser } from '../auth/guard.ts';
import { getUser } from '../users.ts';
import { notFound } from '../lib/errors.ts';
import { fairnessState, rotateSeed, setClientSeed } from '../games/fairness.ts';
import { betHistory, betProof, weightTable } from '../games/bets.ts';

/**
 * The player's seed pair: see the commitment, choose a client seed, rotate to reveal the server seed;
 * the player's bets, paged; and the public proofs: one bet by its public id, a weight table by its hash
 * (no sign-in: anyone may check any bet).
 */
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
    { preHandler: auth, schema: { body: SetClientSeedRequest, response: { 200: SetClientSeedResponse } } },
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

  app.get(
    '/fairness/history',
    { preHandler: auth, schema: { querystring: BetHistoryQuery, response: { 200: BetHistoryResponse } } },
    async (request) => {
      const page = request.query.page ?? 1;
      const limit = request.query.limit ?? 20;
      return { page, limit, ...(await betHistory(ctx.db, request.userId, page, limit)) };
    },
  );

  app.get(
    '/fairness/bets/:id',
    { schema: { params: BetParams, response: { 200: BetProof, 404: ApiError } } },
    async (request) => betProof(ctx.db, request.params.id),
  );

  app.get(
    '/fairness/tables/:hash',
    { schema: { params: TableParams, response: { 200: WeightTable, 404: ApiError } } },
    async (request) => {
      const table = await weightTable(ctx.db, request.params.hash);
      if (!table) throw notFound('TABLE_NOT_FOUND', `There is no weight table ${request.params.hash}`);
      return table;
    },
  );
}
