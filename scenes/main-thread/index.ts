/**
 * The scene runtime on the main thread, for browsers whose workers cannot draw (no OffscreenCanvas or no
 * WebGL in a worker), and for tests of that path: the very same host and scenes as the worker's.
 * The app imports this entry lazily, only on that path.
 */
export { SceneHost, type Compositor } from '../runtime/host.ts';
