import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { ApiError } from '../../contract/common.ts';
import { AdminMetricsQuery, AdminMetricsResponse } from '../../contract/metrics.ts';
import type { App, AppContext } from '../context.ts';
import { requireAdmin } from './admin.ts';

/** Event-loop delay sampling interval, ms: fine enough for a 50 ms target, cheap enough to leave on. */
const RESOLUTION_MS = 10;
const NS_PER_MS = 1e6;

/**
 * GET /admin/metrics (operator key): this instance's event-loop delay (since the last `reset=1`), memory,
 * open app sockets, and running totals (CPU time, event-loop busy time, the database layer's statements,
 * round trips and connection waits) that a load test reads before and after a run, for load tests and
 * monitoring. Registered only when ADMIN_KEY is set.
 */
export function metricsRoutes(app: App, ctx: AppContext, appSockets: () => number): void {
  const adminKey = ctx.config.adminKey;
  if (!adminKey) return;
  const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  delay.enable();
  app.addHook('onClose', async () => delay.disable());
  const errors = { 400: ApiError, 401: ApiError, 403: ApiError };

  app.get(
    '/admin/metrics',
    {
      onRequest: requireAdmin(adminKey),
      schema: { querystring: AdminMetricsQuery, response: { 200: AdminMetricsResponse, ...errors } },
    },
    async (request) => {
      const gc = (globalThis as { gc?: () => void }).gc;
      const collect = request.query.gc === '1' && typeof gc === 'function';
      if (collect) gc();
      const memory = process.memoryUsage();
      const cpu = process.cpuUsage();
      const loop = performance.eventLoopUtilization();
      const answer: AdminMetricsResponse = {
        uptimeSeconds: Math.round(process.uptime()),
        eventLoop: {
          p50Ms: delay.count > 0 ? delay.percentile(50) / NS_PER_MS : 0,
          p99Ms: delay.count > 0 ? delay.percentile(99) / NS_PER_MS : 0,
          maxMs: delay.count > 0 ? delay.max / NS_PER_MS : 0,
          samples: delay.count,
        },
        memory: {
          rss: memory.rss,
          heapUsed: memory.heapUsed,
          heapTotal: memory.heapTotal,
          external: memory.external,
        },
        collected: collect,
        appSockets: appSockets(),
        cpu: { userMs: cpu.user / 1000, systemMs: cpu.system / 1000 },
        eventLoopTime: { activeMs: loop.active, idleMs: loop.idle },
        database: { ...ctx.database.stats },
      };
      if (request.query.reset === '1') delay.reset();
      return answer;
    },
  );
}
