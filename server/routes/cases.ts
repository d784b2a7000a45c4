import {
  CaseParams,
  CaseResponse,
  CasesResponse,
  HistoryQuery,
  HistoryResponse,
  OpenCaseRequest,
  OpenCaseResponse,
  OpenMultipleRequest,
  OpenMultipleResponse,
} from '../../contract/cases.ts';
import { ApiError } from '../../contract/common.ts';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, AppContext } from '../context.ts';
import { requireUser } from '../auth/guard.ts';
import { notFound } from '../lib/errors.ts';
import { withIdempotency } from '../lib/idempotency.ts';
import { CatalogueCache, etagMatches, type CachedBody } from '../games/catalogue-cache.ts';
import { openCase, openingHistory } from '../games/opening.ts';
import { announceDrops, type DropRow } from '../realtime/feed.ts';
import { formatTon } from '../../contract/money.ts';

/** History paging defaults (spec §9). */
const HISTORY_PAGE = 1;
const HISTORY_LIMIT = 20;

/**
 * openCase locks the player with its first statement (reading the case in it): no separate lock first; with
 * an Idempotency-Key, it claims the key in that same exchange.
 */
const LOCKS_PLAYER = { workLocksPlayer: true, workClaimsKey: true };

/** Content codings the cached catalogue answers come in, besides identity; the first is preferred. */
const encodings = new Negotiator({ supportedValues: ['br', 'gzip'] });

/**
 * Sends a cached catalogue answer: 304 when the client's copy is current, otherwise the prepared bytes in
 * the best coding the client accepts. Clients keep the answer but ask again each time (no-cache), so a
 * catalogue change shows at once and an unchanged one costs a 304.
 */
function sendCached(request: FastifyRequest, reply: FastifyReply, body: CachedBody): FastifyReply {
  void reply.header('etag', body.etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
  if (etagMatches(request.headers['if-none-match'], body.etag)) return reply.code(304).send();
  const accept = request.headers['accept-encoding'];
  const coding = accept ? encodings.negotiate(accept) : null;
  void reply.type('application/json; charset=utf-8');
  if (coding === 'br') return reply.header('content-encoding', 'br').send(body.br);
  if (coding === 'gzip') return reply.header('content-encoding', 'gzip').send(body.gzip);
  return reply.send(body.identity);
}

/** The case catalogue (public: no sign-in needed to look) and opening (signed-in players only). */
export function caseRoutes(app: App, ctx: AppContext): void {
  const auth = requireUser(ctx);
  const catalogue = new CatalogueCache(ctx.db, ctx.bus);
  app.addHook('onClose', async () => catalogue.close());
  const openErrors = {
    400: ApiError,
    401: ApiError,
    402: ApiError,
    403: ApiError,
    404: ApiError,
    409: ApiError,
    422: ApiError,
  };

  // the answers are prepared JSON (built from the same rows and shapes the schema describes), sent as bytes
  app.get('/cases', { schema: { response: { 200: CasesResponse } } }, async (request, reply) =>
    sendCached(request, reply, await catalogue.cases()),
  );

  app.get(
    '/cases/history',
    { preHandler: auth, schema: { querystring: HistoryQuery, response: { 200: HistoryResponse } } },
    async (request) => {
      const page = request.query.page ?? HISTORY_PAGE;
      const limit = request.query.limit ?? HISTORY_LIMIT;
      const { total, openings } = await openingHistory(ctx.db, request.userId, page, limit);
      return { page, limit, total, openings };
    },
  );

  app.get(
    '/cases/:id',
    { schema: { params: CaseParams, response: { 200: CaseResponse, 404: ApiError } } },
    async (request, reply) => {
      const found = await catalogue.case(request.params.id);
      if (!found) throw notFound('CASE_NOT_FOUND', `There is no case "${request.params.id}"`);
      return sendCached(request, reply, found);
    },
  );

  app.post(
    '/cases/open',
    {
      preHandler: auth,
      schema: { body: OpenCaseRequest, response: { 200: OpenCaseResponse, ...openErrors } },
    },
    async (request, reply) => {
      const drops: DropRow[] = [];
      const answer = await withIdempotency(
        ctx.db,
        request,
        reply,
        async (trx, ends, claim) => {
          const outcome = await openCase(trx, request.userId, request.body.caseId, 1, {
            commits: ends,
            claim,
          });
          drops.splice(0, drops.length, ...outcome.drops);
          return { ...outcome.results[0]!, balance: formatTon(outcome.balanceNano) };
        },
        LOCKS_PLAYER,
      );
      // committed (a refusal threw; a replayed answer opened nothing): now the feed may hear of it
      announceDrops(ctx.bus, drops, request.log, request.userId);
      return answer;
    },
  );

  app.post(
    '/cases/open-multiple',
    {
      preHandler: auth,
      schema: { body: OpenMultipleRequest, response: { 200: OpenMultipleResponse, ...openErrors } },
    },
    async (request, reply) => {
      const { caseId, amount } = request.body;
      const drops: DropRow[] = [];
      const answer = await withIdempotency(
        ctx.db,
        request,
        reply,
        async (trx, ends, claim) => {
          const outcome = await openCase(trx, request.userId, caseId, amount, { commits: ends, claim });
          drops.splice(0, drops.length, ...outcome.drops);
          return {
            success: true as const,
            results: outcome.results,
            balance: formatTon(outcome.balanceNano),
          };
        },
        LOCKS_PLAYER,
      );
      announceDrops(ctx.bus, drops, request.log, request.userId);
      return answer;
    },
  );
}
