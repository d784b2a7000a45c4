// Reading a Chrome trace (the JSON the DevTools protocol's Tracing domain returns) for the frames benchmark:
// the frames the display compositor drew, how busy a page's main thread was, user timing marks, input
// events and animation-frame callbacks, each over a window of trace time. Times are trace microseconds.
import { percentile } from './report.ts';

export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  s?: string;
  args?: Record<string, unknown>;
}

/** A window of trace time, µs. */
export interface Window {
  from: number;
  to: number;
}

/** Threads and processes by id, from the trace's metadata events. */
export interface TraceIndex {
  events: TraceEvent[];
  processName: Map<number, string>;
  threadName: Map<string, string>;
}

/** The event the viz display compositor records for each frame it draws (worker canvases included). */
const DRAW_EVENT = 'DirectRenderer::DrawFrame';
/** A frame interval longer than this missed at least one vsync at 60 Hz, ms. */
const LONG_INTERVAL_MS = 33.4;

const threadKey = (pid: number, tid: number) => `${pid}:${tid}`;

export function indexTrace(input: string | { traceEvents: TraceEvent[] } | TraceEvent[]): TraceIndex {
  const parsed: unknown = typeof input === 'string' ? JSON.parse(input) : input;
  const events =
    (Array.isArray(parsed) ? parsed : (parsed as { traceEvents: TraceEvent[] }).traceEvents) ?? [];
  const processName = new Map<number, string>();
  const threadName = new Map<string, string>();
  for (const e of events) {
    if (e.ph !== 'M') continue;
    const name = (e.args as { name?: string } | undefined)?.name;
    if (name === undefined) continue;
    if (e.name === 'process_name') processName.set(e.pid, name);
    else if (e.name === 'thread_name') threadName.set(threadKey(e.pid, e.tid), name);
  }
  return { events, processName, threadName };
}

function threadNameOf(trace: TraceIndex, pid: number, tid: number): string {
  return trace.threadName.get(threadKey(pid, tid)) ?? `thread ${tid}`;
}

const data = (e: TraceEvent) => (e.args?.data ?? {}) as Record<string, unknown>;

/**
 * The renderer process that runs a page's main frame: the process whose CrRendererMain thread recorded
 * events for that frame id (CDP Page.getFrameTree's frame.id).
 */
export function rendererOfFrame(trace: TraceIndex, frameId: string): { pid: number; mainTid: number } | null {
  const hits = new Map<number, number>();
  for (const e of trace.events) {
    if (e.ph === 'M') continue;
    const frame = data(e).frame ?? (e.args as { frame?: unknown } | undefined)?.frame;
    if (frame !== frameId) continue;
    if (threadNameOf(trace, e.pid, e.tid) !== 'CrRendererMain') continue;
    hits.set(e.pid, (hits.get(e.pid) ?? 0) + 1);
  }
  let best: number | null = null;
  for (const [pid, n] of hits) if (best === null || n > hits.get(best)!) best = pid;
  if (best === null) return null;
  for (const [key, name] of trace.threadName) {
    const [pid, tid] = key.split(':').map(Number) as [number, number];
    if (pid === best && name === 'CrRendererMain') return { pid, mainTid: tid };
  }
  return null;
}

/**
 * Times the display compositor drew a frame, sorted. Taken from the GPU process (where viz runs) when the
 * trace has one, so a renderer's own frame events can never be counted.
 */
export function drawTimes(trace: TraceIndex): number[] {
  const gpu = new Set([...trace.processName].filter(([, n]) => n === 'GPU Process').map(([pid]) => pid));
  return trace.events
    .filter(
      (e) => e.name === DRAW_EVENT && (e.ph === 'X' || e.ph === 'B') && (gpu.size === 0 || gpu.has(e.pid)),
    )
    .map((e) => e.ts)
    .sort((a, b) => a - b);
}

/** Total length of the union of intervals, each clipped to the window. */
export function coveredTime(intervals: readonly [number, number][], window: Window): number {
  const clipped = intervals
    .map(([a, b]) => [Math.max(a, window.from), Math.min(b, window.to)] as [number, number])
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let total = 0;
  let start = -Infinity;
  let end = -Infinity;
  for (const [a, b] of clipped) {
    if (a > end) {
      if (end > start) total += end - start;
      start = a;
      end = b;
    } else if (b > end) end = b;
  }
  if (end > start) total += end - start;
  return total;
}

/**
 * Whether an event is top-level work of its thread (category toplevel): a scheduler task (a RunTask), or a
 * microtask checkpoint, which Blink may run outside any task (after an animation frame's callbacks: a
 * promise chain resumed there can run for hundreds of ms and is in no RunTask).
 */
function isTopLevelTask(e: TraceEvent): boolean {
  return (
    e.ph === 'X' &&
    (/RunTask$/.test(e.name) || e.name === 'BlinkScheduler_PerformMicrotaskCheckpoint') &&
    e.cat.split(',').includes('toplevel')
  );
}

/** Share of the window a thread spent in top-level tasks (nested tasks counted once), 0..1. */
export function busyShare(trace: TraceIndex, pid: number, tid: number, window: Window): number {
  const spans: [number, number][] = [];
  for (const e of trace.events)
    if (e.pid === pid && e.tid === tid && isTopLevelTask(e)) spans.push([e.ts, e.ts + (e.dur ?? 0)]);
  const length = window.to - window.from;
  return length > 0 ? coveredTime(spans, window) / length : 0;
}

/** The scheduler's own wrappers around a task's work: a task holding only these traced nothing of its own. */
const TASK_WRAPPER = /RunTask$|^BlinkScheduler_|^SimpleWatcher::|^Receive mojo /;

/**
 * The CPU throttle's stalls in a thread's top-level tasks over the window: tasks of 4 ms or more in which
 * traced work covers under 1 ms. Under DevTools CPU throttling on Linux the thread's signal handler spins up
 * to (rate − 1) ms whenever the thread lost its core for a millisecond (see frames.bench.ts), and such a
 * spin inside a task shows as a task with nothing in it. `ms` is the time of those tasks not covered by
 * traced work: a part of busy that measures the machine's contention, not the page's work. It is a lower
 * bound: a spin that lands inside traced work (a script call, a paint) is counted as that work.
 */
export function throttleStalls(
  trace: TraceIndex,
  pid: number,
  tid: number,
  window: Window,
): { count: number; ms: number } {
  const own = trace.events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X');
  const work = own.filter((e) => !TASK_WRAPPER.test(e.name));
  let count = 0;
  let stalled = 0;
  // a top-level task nested in another (a nested run loop) is part of the outer one's time
  let outerEnd = -Infinity;
  const tasks = own.filter(isTopLevelTask).sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  for (const task of tasks) {
    const dur = task.dur ?? 0;
    if (task.ts < outerEnd) continue;
    outerEnd = task.ts + dur;
    if (dur < 4000 || task.ts < window.from || task.ts >= window.to) continue;
    const span: Window = { from: task.ts, to: task.ts + dur };
    const inside = work
      .filter((e) => e.ts >= span.from && e.ts < span.to)
      .map((e) => [e.ts, e.ts + (e.dur ?? 0)] as [number, number]);
    const traced = coveredTime(inside, span);
    if (traced >= 1000) continue;
    count += 1;
    stalled += dur - traced;
  }
  return { count, ms: Math.round(stalled / 100) / 10 };
}

/** Threads of a process whose name matches, e.g. /Worker/ for dedicated workers. */
export function threadsOf(trace: TraceIndex, pid: number, name: RegExp): number[] {
  const out: number[] = [];
  for (const [key, n] of trace.threadName) {
    const [p, tid] = key.split(':').map(Number) as [number, number];
    if (p === pid && name.test(n)) out.push(tid);
  }
  return out;
}

/** Times of user timing marks (performance.mark) with this name in a process, any thread, sorted. */
export function markTimes(trace: TraceIndex, pid: number, name: string): number[] {
  return trace.events
    .filter((e) => e.pid === pid && e.name === name && e.cat.includes('user_timing') && e.ph !== 'e')
    .map((e) => e.ts)
    .sort((a, b) => a - b);
}

/** Start times of DOM event dispatches of one type (e.g. 'pointerdown') on a thread, sorted. */
export function eventDispatchTimes(trace: TraceIndex, pid: number, tid: number, type: string): number[] {
  return trace.events
    .filter((e) => e.pid === pid && e.tid === tid && e.name === 'EventDispatch' && data(e).type === type)
    .map((e) => e.ts)
    .sort((a, b) => a - b);
}

/** When the page sent a request to a URL path and when its answer was in (the last of its load events). */
export function requestTimes(
  trace: TraceIndex,
  pid: number,
  path: string,
): { sent: number; answered: number | null } | null {
  const send = trace.events.find(
    (e) => e.pid === pid && e.name === 'ResourceSendRequest' && String(data(e).url ?? '').includes(path),
  );
  if (!send) return null;
  const id = data(send).requestId;
  let answered: number | null = null;
  for (const e of trace.events)
    if (
      e.pid === pid &&
      (e.name === 'ResourceFinish' || e.name === 'ResourceReceiveResponse') &&
      data(e).requestId === id
    )
      answered = Math.max(answered ?? 0, e.ts);
  return { sent: send.ts, answered };
}

/** Animation-frame callbacks (FireAnimationFrame) in a process over a window, per thread name. */
export function animationFrames(trace: TraceIndex, pid: number, window: Window): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of trace.events) {
    if (e.pid !== pid || e.name !== 'FireAnimationFrame' || e.ph !== 'X') continue;
    if (e.ts < window.from || e.ts > window.to) continue;
    const name = threadNameOf(trace, e.pid, e.tid);
    out[name] = (out[name] ?? 0) + 1;
  }
  return out;
}

/**
 * When a scene started moving, without a mark from it: the second animation-frame callback, on the thread
 * that ran the first one in the process at or after a time (the first frame of a play draws its starting
 * pose). The first one when no second followed; null when none ran.
 */
export function secondAnimationFrameAfter(trace: TraceIndex, pid: number, after: number): number | null {
  const frames = trace.events
    .filter((e) => e.pid === pid && e.name === 'FireAnimationFrame' && e.ts >= after)
    .sort((a, b) => a.ts - b.ts);
  const first = frames[0];
  if (!first) return null;
  return frames.find((e) => e.tid === first.tid && e.ts > first.ts)?.ts ?? first.ts;
}

/** The first time in a sorted list at or after a time. */
export function firstAtOrAfter(times: readonly number[], after: number): number | null {
  for (const t of times) if (t >= after) return t;
  return null;
}

/** The last time in a sorted list at or before a time. */
export function lastAtOrBefore(times: readonly number[], before: number): number | null {
  let found: number | null = null;
  for (const t of times) {
    if (t > before) break;
    found = t;
  }
  return found;
}

export interface FrameFigures {
  /** frames drawn inside the window */
  draws: number;
  drawsPerSecond: number;
  /** intervals between consecutive draws inside the window, ms */
  intervalP50Ms: number | null;
  intervalP99Ms: number | null;
  worstIntervalMs: number | null;
  /** intervals longer than LONG_INTERVAL_MS */
  longIntervals: number;
}

const round = (x: number, digits = 1) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/** Drawn-frame figures of a window from sorted draw times. */
export function frameFigures(draws: readonly number[], window: Window): FrameFigures {
  const inside = draws.filter((t) => t >= window.from && t <= window.to);
  const intervals: number[] = [];
  for (let i = 1; i < inside.length; i++) intervals.push((inside[i]! - inside[i - 1]!) / 1000);
  const seconds = (window.to - window.from) / 1e6;
  return {
    draws: inside.length,
    drawsPerSecond: seconds > 0 ? round(inside.length / seconds) : 0,
    intervalP50Ms: intervals.length ? round(percentile(intervals, 50)) : null,
    intervalP99Ms: intervals.length ? round(percentile(intervals, 99)) : null,
    worstIntervalMs: intervals.length ? round(Math.max(...intervals)) : null,
    longIntervals: intervals.filter((ms) => ms > LONG_INTERVAL_MS).length,
  };
}

/**
 * The thread that ran the scene's frames during a window: the one of the page's renderer with the most
 * animation-frame callbacks. 'main' for CrRendererMain, 'worker' for a dedicated worker, null when none ran.
 */
export function sceneThread(trace: TraceIndex, pid: number, window: Window): 'main' | 'worker' | null {
  const counts = Object.entries(animationFrames(trace, pid, window)).sort((a, b) => b[1] - a[1]);
  const top = counts[0];
  if (!top) return null;
  return top[0] === 'CrRendererMain' ? 'main' : /Worker/i.test(top[0]) ? 'worker' : null;
}

/**
 * The thread that made a user timing mark at a time (the scene runtime marks motion on the thread it runs
 * on): 'main' for CrRendererMain, 'worker' for a dedicated worker, null when there is no such mark.
 */
export function markThread(trace: TraceIndex, pid: number, at: number): 'main' | 'worker' | null {
  const mark = trace.events.find(
    (e) => e.pid === pid && e.ts === at && e.cat.includes('user_timing') && e.ph !== 'e',
  );
  if (!mark) return null;
  const name = threadNameOf(trace, pid, mark.tid);
  return name === 'CrRendererMain' ? 'main' : /Worker/i.test(name) ? 'worker' : null;
}
