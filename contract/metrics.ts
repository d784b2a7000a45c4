import { Type, type Static } from 'typebox';

// ── the operator's view of one instance: GET /admin/metrics (x-admin-key) ──────────────────────────

export const AdminMetricsQuery = Type.Object({
  /** 1: start a new event-loop delay window after this reading (a load test reads one window at a time) */
  reset: Type.Optional(Type.Union([Type.Literal('0'), Type.Literal('1')])),
  /** 1: collect garbage before reading memory, when the process allows it (node --expose-gc) */
  gc: Type.Optional(Type.Union([Type.Literal('0'), Type.Literal('1')])),
});
export type AdminMetricsQuery = Static<typeof AdminMetricsQuery>;

export const AdminMetricsResponse = Type.Object({
  /** seconds since the process started */
  uptimeSeconds: Type.Number(),
  /** event-loop delay since the last reset (or the start), ms (perf_hooks.monitorEventLoopDelay) */
  eventLoop: Type.Object({
    p50Ms: Type.Number(),
    p99Ms: Type.Number(),
    maxMs: Type.Number(),
    /** delays sampled in the window */
    samples: Type.Number(),
  }),
  /** bytes */
  memory: Type.Object({
    rss: Type.Number(),
    heapUsed: Type.Number(),
    heapTotal: Type.Number(),
    external: Type.Number(),
  }),
  /** whether garbage was collected before the memory reading */
  collected: Type.Boolean(),
  /** open app sockets on this instance */
  appSockets: Type.Number(),
  /** CPU time this process has used since it started, ms (process.cpuUsage): two readings give a run's cost */
  cpu: Type.Object({ userMs: Type.Number(), systemMs: Type.Number() }),
  /** time the event loop has been busy and idle since the process started, ms (eventLoopUtilization) */
  eventLoopTime: Type.Object({ activeMs: Type.Number(), idleMs: Type.Number() }),
  /** the database layer's counters since the database was opened (server/db/stats.ts) */
  database: Type.Object({
    statements: Type.Number(),
    roundTrips: Type.Number(),
    transactions: Type.Number(),
    acquisitions: Type.Number(),
    acquireWaitMs: Type.Number(),
    heldMs: Type.Number(),
  }),
});
export type AdminMetricsResponse = Static<typeof AdminMetricsResponse>;
