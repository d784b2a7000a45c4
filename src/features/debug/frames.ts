import type { ConfigObject } from './config-io';
import type { MotionSamples, SceneId } from './registry';

/** Frames kept for window.__sceneDebug.frames (benchmarks read them); the graph shows the last GRAPH_FRAMES. */
export const KEPT_FRAMES = 5_000;
export const GRAPH_FRAMES = 300;

/**
 * What the switcher exposes on window.__sceneDebug for tests and benchmarks. Frame times are measured by
 * the scene runtime (intervals between the frames it draws) and arrive batched with its progress events.
 */
export interface SceneDebugHandle {
  /** Plays that reached their end since the page opened. */
  settledCount: number;
  /** Time between animation frames while a scene plays, ms, oldest first (the last KEPT_FRAMES). */
  frames: number[];
  /** The scene shown. */
  scene: SceneId;
  /** Its config as edited (the next play uses it). */
  config: ConfigObject;
  /** Whether a play is under way. */
  playing: boolean;
  /** Motion of a fixed plan under the current config (registry.ts): equal samples, equal motion. */
  sample(): MotionSamples;
}

declare global {
  interface Window {
    __sceneDebug?: SceneDebugHandle;
  }
}

/** The nearest-rank percentile p (0 to 100) of the values; NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((Math.min(Math.max(p, 0), 100) / 100) * sorted.length);
  return sorted[Math.min(Math.max(rank - 1, 0), sorted.length - 1)]!;
}

/** Appends to a list kept at most `limit` long (oldest dropped). */
export function pushBounded(list: number[], value: number, limit: number): void {
  list.push(value);
  if (list.length > limit) list.splice(0, list.length - limit);
}
