import type { RendererChoice } from '../shared/renderer.ts';
import type { CompositedDisc, CompositedStrip, SceneId, SceneSize, SettledResult } from './contract.ts';

/**
 * Messages between the app (main thread) and the scene runtime (a worker, or the main-thread fallback with
 * the same code). The app sends plans, sizes, visibility and, from the debug switcher, config and clock
 * changes; the runtime answers with batched events: never a message per frame.
 */

/**
 * From a worker, a play whose layers the page has staged (a wheel's face, a reel's strips) starts this long
 * after its play message, ms: the page is offered them as the play starts, and gets them on screen and
 * their motion started (the offer's message, their opacity, a strip's changed cards, the animations, a
 * style pass and a commit: 15–50 ms of a slow phone's main thread, after whatever the page was doing for
 * the answer) while the canvas still shows the rest pose. Without it that work ran while the first moving
 * frames were drawn, on a thread competing with the canvas's for a cheap phone's cores. Three frames at
 * 60 Hz; the tap waits that much longer to see motion.
 */
export const OFFER_LEAD_MS = 50;

/** A canvas the runtime can draw on: a transferred OffscreenCanvas, or the fallback's own canvas element. */
type SurfaceCanvas = OffscreenCanvas | { readonly width: number; readonly height: number };

export type ToRuntime =
  | {
      type: 'mount';
      surface: number;
      scene: SceneId;
      canvas: SurfaceCanvas;
      size: SceneSize;
      /** Default: WebGL, or canvas 2D where WebGL is a software rasterizer (shared/renderer.ts). */
      renderer?: RendererChoice;
    }
  | { type: 'prepare'; surface: number; plan: unknown }
  | { type: 'play'; surface: number }
  | { type: 'resize'; surface: number; size: SceneSize }
  | { type: 'configure'; surface: number; config: Record<string, unknown> }
  | { type: 'clock'; surface: number; rate?: number; paused?: boolean; seek?: number }
  /** Ask for `progress` events (time since the spin started, frame intervals) about 10 times a second. */
  | { type: 'watch'; surface: number; progress: boolean }
  | { type: 'unmount'; surface: number }
  | { type: 'visibility'; visible: boolean }
  /** The answer to an `art-request`: the image decoded by the main thread (SVG needs a document). */
  | { type: 'art'; url: string; bitmap: ImageBitmap | null }
  /** The page shows a `show`'s layers (they are in a frame it has drawn): the worker stops drawing them. */
  | { type: 'shown'; handoff: number }
  | { type: 'stats'; request: number };

/** What one surface reports, in order, batched. */
export type SceneEvent =
  | { type: 'ready'; renderer: string }
  | { type: 'prepared' }
  /** `count` crossings since the last tick event, the last one being `last`. */
  | { type: 'tick'; count: number; last: number }
  | { type: 'started'; at: number }
  /**
   * The play's whole tick schedule, sent once as it starts: every crossing as a time on the shared time
   * line (performance.timeOrigin + performance.now(), the same for the page and its workers). It replaces
   * an earlier schedule; an empty one cancels it, and `tick` events report crossings live from then on (the
   * debug switcher's slowed, paused or scrubbed clock).
   */
  | { type: 'ticks'; times: number[] }
  | { type: 'progress'; elapsed: number; paused: boolean; rate: number; frameTimes: number[] }
  | { type: 'settled'; result: SettledResult }
  | { type: 'error'; message: string };

export interface RuntimeStats {
  /** Frames the runtime has drawn since it started, all surfaces together. */
  frames: number;
  /** Surfaces mounted now. */
  surfaces: number;
  /** Renderer of each surface ('webgl', 'webgpu', 'canvas'). */
  renderers: string[];
  /** Whether the frame loop is scheduled right now. */
  running: boolean;
}

/**
 * A composited layer as a worker sends it to the page: each image by the number it was preloaded under,
 * keyframe times on the shared time line (performance.timeOrigin + performance.now()). A strip's cards
 * (image, x) and every layer's keyframes (t, then x or angle) go as pairs of numbers in one Float64Array:
 * a structured clone copies it as one block, where arrays of small objects (a x3 reel's hundreds of cards
 * and keyframes) cost the page an object each to read as the spin starts, and the garbage after.
 */
export type SentLayer =
  | (Omit<CompositedStrip, 'images' | 'cards' | 'keyframes'> & {
      images: readonly (number | null)[];
      cards: Float64Array;
      keyframes: Float64Array;
    })
  | (Omit<CompositedDisc, 'image' | 'landedImage' | 'keyframes'> & {
      image: number | null;
      landedImage?: number | null;
      keyframes: Float64Array;
    });

export type FromRuntime =
  | {
      type: 'events';
      surface: number;
      events: SceneEvent[];
      frames: number;
      /** The runtime's animation frames (its frame loop's callbacks) so far: events of one frame share it. */
      loop: number;
    }
  | { type: 'art-request'; url: string }
  | { type: 'stats'; request: number; stats: RuntimeStats }
  /**
   * The worker's side of the page's compositor (the main-thread path calls it directly). `preload` gives
   * the page an encoded strip or face image to decode ahead, under a number the layers name it by;
   * `release` says no layer will name it again. `show` puts a play's layers under the surface's canvas,
   * answered by `shown` once they are on screen; `hide` removes them, a frame or two after it arrives
   * (once the canvas the worker has just drawn with them is on screen). `stand-by` gets a surface's discs and
   * strips ready under its canvas, unseen, for a later `show` of the same ones (replacing what it had).
   */
  | { type: 'preload'; image: number; blob: Blob }
  | { type: 'release'; image: number }
  | { type: 'show'; surface: number; handoff: number; layers: SentLayer[] }
  | { type: 'stand-by'; surface: number; layers: SentLayer[] }
  | { type: 'hide'; surface: number };
