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
import type { App, AppContext } from '../context.ts';
import { requireUser } from '../auth/guard.ts';
import { notFound } from '../lib/errors.ts';
import { withIdempotency } from '../lib/idempotency.ts';
import { findCase, listCases } from '../games/cases.ts';
import { openCase, openingHistory } from '../games/opening.ts';
import { announceDrops, type DropRow } from '../realtime/feed.ts';
import { formatTon } from '../../contract/money.ts';

/** History paging defaults (spec §9). */
const HISTORY_PAGE = 1;
const HISTORY_LIMIT = 20;

/** The case catalogue (public: no sign-in needed to look) and opening (signed-in players only). */
export function caseRoutes(app: App, ctx: AppContext): void {
  const auth = requireUser(ctx);
  const openErrors = {
    400: ApiError,
    401: ApiError,
    402: ApiError,
    403: ApiError,
    404: ApiError,
    409: ApiError,
    422: ApiError,
  };

  app.get('/cases', { schema: { response: { 200: CasesResponse } } }, async () => ({
    cases: await listCases(ctx.db),
  }));

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
    async (request) => {
      const found = await findCase(ctx.db, request.params.id);
      if (!found) throw notFound('CASE_NOT_FOUND', `There is no case "${request.params.id}"`);
      return { case: found };
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
      const answer = await withIdempotency(ctx.db, request, reply, async (trx) => {
        const outcome = await openCase(trx, request.userId, request.body.caseId, 1);
        drops.splice(0, drops.length, ...outcome.drops);
        return { ...outcome.results[0]!, balance: formatTon(outcome.balanceNano) };
      });
      // committed (a refusal threw; a replayed answer opened nothing): now the feed may hear of it
      announceDrops(ctx.bus, drops, request.log);
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
      const answer = await withIdempotency(ctx.db, request, reply, async (trx) => {
        const outcome = await openCase(trx, request.userId, caseId, amount);
        drops.splice(0, drops.length, ...outcome.drops);
        return { success: true as const, results: outcome.results, balance: formatTon(outcome.balanceNano) };
      });
      announceDrops(ctx.bus, drops, request.log);
      return answer;
    },
  );
}
