import type {
  FromRuntime,
  RuntimeStats,
  SceneEvent,
  SceneId,
  SceneSize,
  SettledResult,
  ToRuntime,
} from '../../../scenes/runtime';
import { createSceneWorker } from '../../../scenes/runtime';
import type { RendererChoice } from '../../../scenes/roulette';
import { scenePlayingAtom } from '../../state/scenes';
import { store } from '../../state/store';
import { createCompositor, layersDecoded, releaseImage } from './compositor';
import { compositorPort, ownThreadCompositor, type CompositorPort } from './compositor-port';

/**
 * The app's side of the scene runtime: one runtime per page, in a dedicated worker drawing on
 * OffscreenCanvases, or, where that cannot work (or when forced with `?scenes=main` in the page's URL), the
 * same runtime on the main thread. The app sends plans, sizes and visibility; the runtime answers with
 * batched events. Sound and haptics stay here, driven by those events.
 */
type SceneMode = 'worker' | 'main';

/** Longest side an image decoded here (SVG art) is rasterized at, px: sharp on a card at DPR 2. */
const ART_SIZE = 256;

interface Connection {
  send(message: ToRuntime, transfer?: Transferable[]): void;
}

/** Chosen once, when the page loads: `?scenes=main|worker` forces a path (tests run both). */
const mode: SceneMode = (() => {
  const forced = new URLSearchParams(window.location.search).get('scenes');
  if (forced === 'main' || forced === 'worker') return forced;
  const offscreen =
    typeof OffscreenCanvas !== 'undefined' &&
    typeof Worker !== 'undefined' &&
    'transferControlToOffscreen' in HTMLCanvasElement.prototype;
  return offscreen ? 'worker' : 'main';
})();

let connection: Connection | null = null;
let frames = 0;
/** Event messages the runtime has sent (batches of scene events: a spin sends a few, none per crossing). */
let eventMessages = 0;
let nextSurface = 1;
let nextRequest = 1;
const listeners = new Map<number, (events: SceneEvent[]) => void>();
/** The scene canvases (on the worker path, their placeholders), by surface: composited strips go under them. */
const canvases = new Map<number, HTMLCanvasElement>();
/** The worker path's end of the runtime's compositor messages. */
let port: CompositorPort | null = null;
const statsRequests = new Map<number, (stats: RuntimeStats) => void>();
/** Where the last spins landed, as the runtime reported them (newest last, a few kept). */
const settledLog: SettledResult[] = [];
/** The runtime's animation frame each of those landings was drawn in (see the events message's `loop`). */
const settledLoops: number[] = [];
const SETTLED_KEPT = 20;
/** Spins the runtime has reported started (the reels move from then on, preparation is over). */
let startedCount = 0;
/** Surfaces whose play has started and not settled. */
const playing = new Set<number>();

function setPlaying(surface: number, now: boolean): void {
  if (now === playing.has(surface)) return;
  if (now) playing.add(surface);
  else playing.delete(surface);
  store.set(scenePlayingAtom, playing.size > 0);
}

/** Decodes an image on the main thread (the worker cannot decode SVG): an ImageBitmap, or null. */
async function decodeArt(url: string): Promise<ImageBitmap | null> {
  try {
    const image = new Image();
    image.decoding = 'async';
    image.src = url;
    await image.decode();
    const natural = Math.max(image.naturalWidth, image.naturalHeight);
    const scale = natural > 0 ? ART_SIZE / natural : 1;
    const width = Math.max(Math.round((image.naturalWidth || ART_SIZE) * scale), 1);
    const height = Math.max(Math.round((image.naturalHeight || ART_SIZE) * scale), 1);
    return await createImageBitmap(image, {
      resizeWidth: width,
      resizeHeight: height,
      resizeQuality: 'high',
    });
  } catch {
    return null;
  }
}

function receive(message: FromRuntime): void {
  if (message.type === 'events') {
    frames = message.frames;
    eventMessages += 1;
    for (const event of message.events) {
      if (event.type === 'started') {
        startedCount += 1;
        setPlaying(message.surface, true);
      }
      if (event.type === 'error') setPlaying(message.surface, false);
      if (event.type !== 'settled') continue;
      setPlaying(message.surface, false);
      settledLog.push(event.result);
      settledLoops.push(message.loop);
      if (settledLog.length > SETTLED_KEPT) {
        settledLog.shift();
        settledLoops.shift();
      }
    }
    listeners.get(message.surface)?.(message.events);
  } else if (message.type === 'art-request') {
    void decodeArt(message.url).then((bitmap) =>
      connect().send({ type: 'art', url: message.url, bitmap }, bitmap ? [bitmap] : []),
    );
  } else if (message.type === 'stats') {
    frames = message.stats.frames;
    statsRequests.get(message.request)?.(message.stats);
    statsRequests.delete(message.request);
  }
}

/** Callbacks waiting for the page's next frame (see afterFrame), or null when none waits. */
let nextFrameQueue: (() => void)[] | null = null;

/**
 * Runs `callback` once the page has drawn a frame with what it changed so far (a task after that frame).
 * Callbacks asked for before the same frame share its animation-frame callback and the one task after it
 * (a battle's reels hand over together: one task, not one per reel, mid-spin).
 */
function afterFrame(callback: () => void): void {
  if (nextFrameQueue) {
    nextFrameQueue.push(callback);
    return;
  }
  const queue = [callback];
  nextFrameQueue = queue;
  requestAnimationFrame(() => {
    // asked for from now on: after the frame that follows this one
    nextFrameQueue = null;
    setTimeout(() => {
      for (const run of queue) {
        // one that fails does not keep the others from running (each had a task of its own)
        try {
          run();
        } catch (error) {
          reportError(error);
        }
      }
    }, 0);
  });
}

function connectWorker(): Connection {
  const worker = createSceneWorker();
  const send = (message: ToRuntime, transfer: Transferable[] = []) => worker.postMessage(message, transfer);
  // the worker hands spins to this page's compositor through messages (see compositor-port.ts)
  const messages = compositorPort({
    compositor: createCompositor((surface) => canvases.get(surface)),
    send,
    decoded: layersDecoded,
    release: releaseImage,
    afterFrame,
    timeOrigin: performance.timeOrigin,
  });
  port = messages;
  worker.addEventListener('message', (event: MessageEvent<FromRuntime>) => {
    if (!messages.handle(event.data)) receive(event.data);
  });
  return { send };
}

function connectMain(): Connection {
  // the same host on this thread: messages wait until its module (with Pixi) has loaded
  const queue: ToRuntime[] = [];
  let handle: ((message: ToRuntime) => void) | null = null;
  void import('../../../scenes/main-thread').then(({ SceneHost }) => {
    const pendingArt = new Map<string, Promise<ImageBitmap | null>>();
    // the host's events reach the page in a task of their own, as a worker's messages do: a play's first
    // frame, or the frame that settles it, is not held by what the page does with them (sounds, the
    // screen's state, the feed and balance held during the spin)
    const inbox: FromRuntime[] = [];
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      for (const message of inbox.splice(0)) receive(message);
    };
    const host = new SceneHost({
      post(message) {
        inbox.push(message);
        if (inbox.length === 1) channel.port2.postMessage(null);
      },
      // a play's first frame is the canvas's; its layers go on the page after it
      compositor: ownThreadCompositor({
        compositor: createCompositor((surface) => canvases.get(surface)),
        decoded: layersDecoded,
      }),
      requestArt: (url) => {
        let art = pendingArt.get(url);
        if (!art) pendingArt.set(url, (art = decodeArt(url)));
        return art;
      },
    });
    handle = (message) => host.handle(message);
    for (const message of queue.splice(0)) handle(message);
  });
  return {
    send(message) {
      if (message.type === 'art') return; // the host asks requestArt directly on this thread
      if (handle) handle(message);
      else queue.push(message);
    },
  };
}

function connect(): Connection {
  if (connection) return connection;
  connection = mode === 'worker' ? connectWorker() : connectMain();
  const visibility = () => connection?.send({ type: 'visibility', visible: !document.hidden });
  document.addEventListener('visibilitychange', visibility);
  if (document.hidden) visibility();
  return connection;
}

/**
 * Whether the scenes run in a worker: a play then starts and moves whatever the page's main thread does,
 * so a screen's render for it may come at once rather than yield to the play's first frames.
 */
export function scenesRunInWorker(): boolean {
  return mode === 'worker';
}

/** Starts the runtime (its worker loads Pixi and the scenes) before any scene is shown. Idempotent. */
export function preloadScenes(): void {
  connect();
}

/** The runtime's frame counter and renderers, straight from the runtime. */
function runtimeStats(): Promise<RuntimeStats> {
  const request = nextRequest++;
  return new Promise((resolve) => {
    statsRequests.set(request, resolve);
    connect().send({ type: 'stats', request });
  });
}

/** One scene on one canvas, as the app drives it. */
export interface SceneSurface {
  prepare(plan: unknown): void;
  play(): void;
  resize(size: SceneSize): void;
  configure(config: Record<string, unknown>): void;
  /** The debug switcher's clock controls (slow motion, pause, scrub relative to the spin's start). */
  clock(change: { rate?: number; paused?: boolean; seek?: number }): void;
  /** Ask for `progress` events (the debug switcher's time and frame graph). */
  watch(progress: boolean): void;
  close(): void;
}

export function openSurface(
  scene: SceneId,
  canvas: HTMLCanvasElement,
  size: SceneSize,
  renderer: RendererChoice | undefined,
  onEvents: (events: SceneEvent[]) => void,
): SceneSurface {
  const runtime = connect();
  const surface = nextSurface++;
  listeners.set(surface, onEvents);
  canvases.set(surface, canvas);
  if (mode === 'worker') {
    const offscreen = canvas.transferControlToOffscreen();
    runtime.send({ type: 'mount', surface, scene, canvas: offscreen, size, renderer }, [offscreen]);
  } else {
    runtime.send({ type: 'mount', surface, scene, canvas, size, renderer });
  }
  return {
    prepare: (plan) => runtime.send({ type: 'prepare', surface, plan }),
    play: () => runtime.send({ type: 'play', surface }),
    resize: (next) => runtime.send({ type: 'resize', surface, size: next }),
    configure: (config) => runtime.send({ type: 'configure', surface, config }),
    clock: (change) => runtime.send({ type: 'clock', surface, ...change }),
    watch: (progress) => runtime.send({ type: 'watch', surface, progress }),
    close() {
      listeners.delete(surface);
      canvases.delete(surface);
      port?.close(surface);
      setPlaying(surface, false);
      runtime.send({ type: 'unmount', surface });
    },
  };
}

/** What tests and benchmarks read: window.__scenes (the path in use and the runtime's frame counter). */
interface ScenesDebugGlobal {
  mode: SceneMode;
  /** Frames drawn, as of the runtime's last message. */
  readonly frames: number;
  /** Asks the runtime for its counters now. */
  stats(): Promise<RuntimeStats>;
  /** Spins started so far, as the runtime reported them (a spin's motion runs from its `started`). */
  readonly started: number;
  /** Event messages received from the runtime so far. */
  readonly eventMessages: number;
  /** Where the last spins landed, as the runtime reported them (newest last). */
  readonly settled: readonly SettledResult[];
  /** The runtime's animation frame each of `settled` landed in: plays that landed together share it. */
  readonly settledLoops: readonly number[];
}

declare global {
  interface Window {
    __scenes?: ScenesDebugGlobal;
  }
}

window.__scenes = {
  mode,
  get frames() {
    return frames;
  },
  stats: runtimeStats,
  get started() {
    return startedCount;
  },
  get eventMessages() {
    return eventMessages;
  },
  settled: settledLog,
  settledLoops,
};
