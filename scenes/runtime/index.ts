/**
 * The scene runtime's public entry for the app: the messages (types only), the worker and the switch
 * between the worker and the main-thread fallback. No Pixi here: the worker loads it in its own bundle,
 * and the fallback imports scenes/main-thread lazily.
 */
export type {
  CompositedDisc,
  CompositedLayer,
  CompositedStrip,
  SceneId,
  SceneSize,
  SettledResult,
} from './contract.ts';
export type { FromRuntime, RuntimeStats, SceneEvent, ToRuntime } from './protocol.ts';
export { receivedLayers } from './composite-wire.ts';
export { linearEasing } from '../shared/linear-easing.ts';

/** Starts the runtime's dedicated worker (one per page; the app keeps it for the page's life). */
export function createSceneWorker(): Worker {
  return new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'scenes' });
}
