/// <reference lib="webworker" />
import { DOMAdapter, WebWorkerAdapter } from 'pixi.js';
import { SceneHost } from './host.ts';
import { remoteCompositor } from './remote-compositor.ts';
import type { FromRuntime, ToRuntime } from './protocol.ts';

/**
 * The scene runtime's worker: Pixi on OffscreenCanvases, off the main thread. The app creates it through
 * createSceneWorker() (index.ts) and talks to it with the messages in protocol.ts.
 */
DOMAdapter.set(WebWorkerAdapter);

const scope = self as unknown as DedicatedWorkerGlobalScope;
const pendingArt = new Map<string, (bitmap: ImageBitmap | null) => void>();

const post = (message: FromRuntime) => scope.postMessage(message);
// spins of baked strips or faces move on the page's compositor thread: this worker computes their motion
// (keyframes from the scene's motion()) and draws no frame while they move
const compositor = remoteCompositor(post);

const host = new SceneHost({
  post,
  compositor,
  requestArt: (url) =>
    new Promise((resolve) => {
      pendingArt.set(url, resolve);
      scope.postMessage({ type: 'art-request', url } satisfies FromRuntime);
    }),
});

scope.addEventListener('message', (event: MessageEvent<ToRuntime>) => {
  const message = event.data;
  if (message.type === 'art') {
    pendingArt.get(message.url)?.(message.bitmap);
    pendingArt.delete(message.url);
    return;
  }
  if (message.type === 'shown') {
    compositor.shown(message.handoff);
    return;
  }
  host.handle(message);
});
