import { describe, expect, it } from 'vitest';
import { machineBusyTicks, otherCores, parsePidStat } from '../../bench/cpu.ts';
import {
  busyShare,
  coveredTime,
  drawTimes,
  eventDispatchTimes,
  frameFigures,
  indexTrace,
  markThread,
  markTimes,
  rendererOfFrame,
  requestTimes,
  sceneThread,
  secondAnimationFrameAfter,
  throttleStalls,
  type TraceEvent,
} from '../../bench/trace.ts';

// A small synthetic trace in the shape Chrome's Tracing domain returns: a GPU process whose viz thread
// draws, a renderer whose page main thread runs tasks and whose worker runs the scene's animation frames,
// and a second renderer that must not be mistaken for the page's.
const GPU = 10;
const PAGE = 20;
const OTHER = 30;
const MAIN = 21;
const WORKER = 22;
const FRAME = 'F00D';

const meta = (pid: number, tid: number, kind: 'process_name' | 'thread_name', name: string): TraceEvent => ({
  name: kind,
  cat: '__metadata',
  ph: 'M',
  pid,
  tid,
  ts: 0,
  args: { name },
});
const x = (pid: number, tid: number, name: string, cat: string, ts: number, dur: number, args = {}) =>
  ({ name, cat, ph: 'X', pid, tid, ts, dur, args }) as TraceEvent;
const instant = (pid: number, tid: number, name: string, cat: string, ts: number, args = {}) =>
  ({ name, cat, ph: 'I', pid, tid, ts, s: 't', args }) as TraceEvent;
const task = (pid: number, tid: number, ts: number, dur: number) =>
  x(pid, tid, 'ThreadControllerImpl::RunTask', 'toplevel', ts, dur);
const draw = (pid: number, ts: number) => x(pid, 11, 'DirectRenderer::DrawFrame', 'viz,benchmark', ts, 500);

function fixture(): TraceEvent[] {
  const events: TraceEvent[] = [
    meta(GPU, GPU, 'process_name', 'GPU Process'),
    meta(GPU, 11, 'thread_name', 'VizCompositorThread'),
    meta(PAGE, PAGE, 'process_name', 'Renderer'),
    meta(PAGE, MAIN, 'thread_name', 'CrRendererMain'),
    meta(PAGE, WORKER, 'thread_name', 'DedicatedWorker thread'),
    meta(OTHER, OTHER, 'process_name', 'Renderer'),
    meta(OTHER, 31, 'thread_name', 'CrRendererMain'),
    // the page's frame shows up on its main thread
    instant(PAGE, MAIN, 'SetLayerTreeId', 'disabled-by-default-devtools.timeline', 1_000, {
      data: { frame: FRAME },
    }),
    instant(OTHER, 31, 'SetLayerTreeId', 'disabled-by-default-devtools.timeline', 1_000, {
      data: { frame: 'B' },
    }),
    // tap, request out at 0.1 s, answered at 0.3 s, marks
    x(PAGE, MAIN, 'EventDispatch', 'devtools.timeline', 50_000, 1_000, { data: { type: 'pointerdown' } }),
    x(PAGE, MAIN, 'EventDispatch', 'devtools.timeline', 52_000, 1_000, { data: { type: 'click' } }),
    instant(PAGE, MAIN, 'ResourceSendRequest', 'devtools.timeline', 100_000, {
      data: { requestId: 'r1', url: 'http://h/api/cases/open-multiple' },
    }),
    instant(PAGE, MAIN, 'ResourceReceiveResponse', 'devtools.timeline', 280_000, {
      data: { requestId: 'r1' },
    }),
    instant(PAGE, MAIN, 'ResourceFinish', 'devtools.timeline', 300_000, { data: { requestId: 'r1' } }),
    { name: 'scene:motion', cat: 'blink.user_timing', ph: 'R', pid: PAGE, tid: WORKER, ts: 320_000 },
    { name: 'scene:settled', cat: 'blink.user_timing', ph: 'R', pid: PAGE, tid: MAIN, ts: 1_900_000 },
    // a renderer's own frame events never count as drawn frames
    x(PAGE, 23, 'DirectRenderer::DrawFrame', 'viz', 400_000, 100),
  ];
  // main thread: a 100 ms task with a nested one, then two 10 ms tasks (one half outside the window)
  events.push(task(PAGE, MAIN, 1_000_000, 100_000), task(PAGE, MAIN, 1_020_000, 30_000));
  events.push(task(PAGE, MAIN, 1_500_000, 10_000), task(PAGE, MAIN, 1_995_000, 10_000));
  // a microtask checkpoint run outside any task (after animation-frame callbacks) is top-level work; one
  // inside a task counts once
  events.push(x(PAGE, MAIN, 'BlinkScheduler_PerformMicrotaskCheckpoint', 'toplevel', 1_600_000, 20_000));
  events.push(x(PAGE, MAIN, 'BlinkScheduler_PerformMicrotaskCheckpoint', 'toplevel', 1_050_000, 40_000));
  // the devtools duplicate of each task is not a top-level task
  events.push(x(PAGE, MAIN, 'RunTask', 'disabled-by-default-devtools.timeline', 1_500_000, 10_000));
  // the worker ran the scene's frames from 0.31 s, the main thread one frame
  for (let t = 310_000; t < 2_000_000; t += 16_667)
    events.push(x(PAGE, WORKER, 'FireAnimationFrame', 'devtools.timeline', t, 2_000));
  events.push(x(PAGE, MAIN, 'FireAnimationFrame', 'devtools.timeline', 305_000, 1_000));
  // the display drew every 16.7 ms from 1 s to 2 s, except one 50 ms gap
  for (let i = 0, t = 1_000_000; t <= 2_000_000; i++) {
    events.push(draw(GPU, t));
    t += i === 20 ? 50_000 : 16_700;
  }
  return events;
}

describe('frames benchmark trace reading', () => {
  const trace = indexTrace(JSON.stringify({ traceEvents: fixture() }));
  const window = { from: 1_000_000, to: 2_000_000 };

  it('finds the renderer and main thread of the page by its frame id', () => {
    expect(rendererOfFrame(trace, FRAME)).toEqual({ pid: PAGE, mainTid: MAIN });
    expect(rendererOfFrame(trace, 'missing')).toBeNull();
  });

  it('counts only the display compositor draws of the GPU process', () => {
    const draws = drawTimes(trace);
    expect(draws.every((t) => t >= 1_000_000)).toBe(true);
    expect(draws[0]).toBe(1_000_000);
    expect(draws).toEqual([...draws].sort((a, b) => a - b));
  });

  it('measures drawn-frame intervals and the long ones', () => {
    const figures = frameFigures(drawTimes(trace), window);
    // 1 s holds 58 draws: 57 intervals, one of them 50 ms
    expect(figures.draws).toBe(58);
    expect(figures.drawsPerSecond).toBe(58);
    expect(figures.intervalP50Ms).toBe(16.7);
    expect(figures.worstIntervalMs).toBe(50);
    expect(figures.intervalP99Ms).toBe(50);
    expect(figures.longIntervals).toBe(1);
    expect(frameFigures([], window)).toMatchObject({ draws: 0, intervalP99Ms: null, longIntervals: 0 });
  });

  it('sums top-level tasks of one thread, nested ones once, clipped to the window', () => {
    // 100 ms + 10 ms + the 20 ms checkpoint + the 5 ms of the last task inside the window, over 1 s
    expect(busyShare(trace, PAGE, MAIN, window)).toBeCloseTo(0.135, 6);
    expect(busyShare(trace, PAGE, MAIN, { from: 1_600_000, to: 1_700_000 })).toBeCloseTo(0.2, 6);
    expect(busyShare(trace, PAGE, MAIN, { from: 1_200_000, to: 1_400_000 })).toBe(0);
    expect(busyShare(trace, OTHER, 31, window)).toBe(0);
  });

  it('merges overlapping intervals', () => {
    const spans: [number, number][] = [
      [0, 10],
      [5, 20],
      [30, 40],
      [35, 36],
    ];
    expect(coveredTime(spans, { from: 0, to: 100 })).toBe(30);
    expect(coveredTime(spans, { from: 15, to: 32 })).toBe(7);
  });

  it('reads the tap, the request, marks and the thread that ran the scene', () => {
    expect(eventDispatchTimes(trace, PAGE, MAIN, 'pointerdown')).toEqual([50_000]);
    expect(requestTimes(trace, PAGE, '/api/cases/open-multiple')).toEqual({
      sent: 100_000,
      answered: 300_000,
    });
    expect(requestTimes(trace, PAGE, '/api/nothing')).toBeNull();
    expect(markTimes(trace, PAGE, 'scene:motion')).toEqual([320_000]);
    expect(sceneThread(trace, PAGE, window)).toBe('worker');
    expect(sceneThread(trace, OTHER, window)).toBeNull();
  });

  it('tells which thread made a mark (a composited play runs no animation frames to tell it by)', () => {
    expect(markThread(trace, PAGE, 320_000)).toBe('worker');
    expect(markThread(trace, PAGE, 1_900_000)).toBe('main');
    expect(markThread(trace, PAGE, 321_000)).toBeNull();
    expect(markThread(trace, OTHER, 320_000)).toBeNull();
  });

  it('takes the second animation frame of the thread that ran the first one as the start of motion', () => {
    // the main thread's frame at 0.305 s comes first, and it has no second one: that frame it is
    expect(secondAnimationFrameAfter(trace, PAGE, 300_000)).toBe(305_000);
    // from 0.306 s the worker's frames: its second one
    expect(secondAnimationFrameAfter(trace, PAGE, 306_000)).toBe(310_000 + 16_667);
    expect(secondAnimationFrameAfter(trace, PAGE, 3_000_000)).toBeNull();
  });
});

describe('frames benchmark throttle stalls', () => {
  // four top-level tasks on the page's main thread, each wrapping its scheduler task
  const wrapped = (ts: number, dur: number, work: TraceEvent[] = []) => [
    x(PAGE, MAIN, 'RunTask', 'disabled-by-default-devtools.timeline', ts, dur),
    task(PAGE, MAIN, ts, dur),
    x(PAGE, MAIN, 'SimpleWatcher::OnHandleReady', 'toplevel', ts, dur),
    ...work,
  ];
  const stalls = indexTrace([
    // 5.4 ms with 0.2 ms of script in it: a stall, 5.2 ms of it untraced
    ...wrapped(10_000, 5_400, [x(PAGE, MAIN, 'FunctionCall', 'devtools.timeline', 10_100, 200)]),
    // 6 ms of real work (a paint): no stall
    ...wrapped(30_000, 6_000, [x(PAGE, MAIN, 'Paint', 'devtools.timeline', 30_500, 5_000)]),
    // 3 ms with nothing in it: too short to be a throttle spin
    ...wrapped(50_000, 3_000),
    // 5 ms with nothing in it, but another thread's
    ...wrapped(70_000, 5_000).map((e) => ({ ...e, tid: WORKER })),
    // 5 ms with nothing in it, starting after the window
    ...wrapped(200_000, 5_000),
    // a nested run loop's task inside a task with work: counted with the outer one, not as a stall
    ...wrapped(250_000, 20_000, [x(PAGE, MAIN, 'FunctionCall', 'devtools.timeline', 250_100, 8_000)]),
    task(PAGE, MAIN, 260_000, 6_000),
  ]);

  it('counts tasks of 4 ms or more with under 1 ms of traced work, and their untraced time', () => {
    expect(throttleStalls(stalls, PAGE, MAIN, { from: 0, to: 100_000 })).toEqual({ count: 1, ms: 5.2 });
    expect(throttleStalls(stalls, PAGE, WORKER, { from: 0, to: 100_000 })).toEqual({ count: 1, ms: 5 });
    expect(throttleStalls(stalls, PAGE, MAIN, { from: 0, to: 300_000 })).toEqual({ count: 2, ms: 10.2 });
    expect(throttleStalls(stalls, PAGE, MAIN, { from: 20_000, to: 60_000 })).toEqual({ count: 0, ms: 0 });
  });
});

describe('frames benchmark CPU accounting', () => {
  it('reads busy ticks from /proc/stat and a process line with spaces in its name', () => {
    expect(machineBusyTicks('cpu  100 5 50 1000 20 1 2 3 0 0\ncpu0 1 2 3\n')).toBe(161);
    const line = '4242 (Chrome (GPU) x) S 4200 4242 4242 0 -1 4194560 10 0 0 0 70 30 5 1 20 0 12 0';
    expect(parsePidStat(line)).toEqual({ ppid: 4200, ticks: 106 });
  });

  it('gives other processes the machine time this process tree did not use', () => {
    const a = { at: 0, machine: 1_000, ours: 400 };
    const b = { at: 2_000, machine: 1_300, ours: 500 };
    // 300 busy ticks in 2 s, 100 of them ours: 200 ticks = 2 s of CPU at 100 ticks/s = 1 core
    expect(otherCores(a, b)).toBe(1);
    expect(otherCores(null, b)).toBeNull();
  });
});
