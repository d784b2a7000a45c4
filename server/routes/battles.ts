import {
  BattleParams,
  BattleResponse,
  BattleSeatResponse,
  BattlesResponse,
  CancelBattleResponse,
  CreateBattleRequest,
  JoinBattleRequest,
} from '../../contract/battles.ts';
import { ApiError } from '../../contract/common.ts';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../context.ts';
import { requireUser } from '../auth/guard.ts';
import { withIdempotency } from '../lib/idempotency.ts';
import { formatTon as nanoToTon } from '../../contract/money.ts';
import {
  battleIdOf,
  cancelBattle,
  createBattle,
  fillWithBots,
  historyIds,
  joinBattle,
  loadBattles,
  lobbyIds,
  type BattleChange,
} from '../games/battles.ts';
import type { BattleClock } from '../realtime/battles.ts';

/** The signed-in player when a valid bearer token came with a public request; null otherwise. */
export async function optionalViewer(ctx: AppContext, request: FastifyRequest): Promise<bigint | null> {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  if (!match) return null;
  const result = await ctx.tokens.verify(match[1]!);
  return typeof result === 'bigint' ? result : null;
}

/**
 * Case battles: the lobby, one battle (public: spectators and the proof need no sign-in), the player's
 * history, and create / join (Idempotency-Key accepted) / bots / cancel for signed-in players.
 */
export function battleRoutes(app: App, ctx: AppContext, clock: BattleClock): void {
  const auth = requireUser(ctx);
  const errors = {
    400: ApiError,
    401: ApiError,
    402: ApiError,
    403: ApiError,
    404: ApiError,
    409: ApiError,
    422: ApiError,
  };
  const roundMs = ctx.config.battleRoundMs;
  const one = async (publicId: string, viewer: bigint | null) =>
    (await loadBattles(ctx.db, [await battleIdOf(ctx.db, publicId)], viewer, roundMs))[0]!;

  app.get('/battles', { schema: { response: { 200: BattlesResponse } } }, async (request) => ({
    battles: await loadBattles(ctx.db, await lobbyIds(ctx.db), await optionalViewer(ctx, request), roundMs),
  }));

  app.get(
    '/battles/history',
    { preHandler: auth, schema: { response: { 200: BattlesResponse } } },
    async (request) => ({
      battles: await loadBattles(ctx.db, await historyIds(ctx.db, request.userId), request.userId, roundMs),
    }),
  );

  app.get(
    '/battles/:id',
    { schema: { params: BattleParams, response: { 200: BattleResponse, 400: ApiError, 404: ApiError } } },
    async (request) => ({ battle: await one(request.params.id, await optionalViewer(ctx, request)) }),
  );

  app.post(
    '/battles',
    {
      preHandler: auth,
      schema: { body: CreateBattleRequest, response: { 200: BattleSeatResponse, ...errors } },
    },
    async (request, reply) => {
      let change: BattleChange | null = null;
      const answer = await withIdempotency(ctx.db, request, reply, async (trx) => {
        const made = await createBattle(trx, request.userId, request.body, clock.timing);
        change = made.change;
        const id = await battleIdOf(trx, made.publicId);
        const [battle] = await loadBattles(trx, [id], request.userId, roundMs);
        return { battle: battle!, balance: nanoToTon(made.balanceNano) };
      });
      if (change) clock.announce(change);
      return answer;
    },
  );

  app.post(
    '/battles/:id/join',
    {
      preHandler: auth,
      schema: {
        params: BattleParams,
        body: JoinBattleRequest,
        response: { 200: BattleSeatResponse, ...errors },
      },
    },
    async (request, reply) => {
      let change: BattleChange | null = null;
      const answer = await withIdempotency(ctx.db, request, reply, async (trx) => {
        const joined = await joinBattle(trx, request.userId, request.params.id, request.body, clock.timing);
        change = joined.change;
        const [battle] = await loadBattles(
          trx,
          [await battleIdOf(trx, request.params.id)],
          request.userId,
          roundMs,
        );
        return { battle: battle!, balance: nanoToTon(joined.balanceNano) };
      });
      if (change) clock.announce(change);
      return answer;
    },
  );

  app.post(
    '/battles/:id/bots',
    { preHandler: auth, schema: { params: BattleParams, response: { 200: BattleResponse, ...errors } } },
    async (request) => {
      const change = await fillWithBots(ctx.db, request.userId, request.params.id, clock.timing);
      clock.announce(change);
      return { battle: await one(request.params.id, request.userId) };
    },
  );

  app.post(
    '/battles/:id/cancel',
    {
      preHandler: auth,
      schema: { params: BattleParams, response: { 200: CancelBattleResponse, ...errors } },
    },
    async (request) => {
      const { balanceNano, change } = await cancelBattle(ctx.db, request.userId, request.params.id);
      clock.announce(change);
      return { battle: await one(request.params.id, request.userId), balance: nanoToTon(balanceNano) };
    },
  );
}
