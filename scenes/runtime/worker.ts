/// <reference lib="webworker" />
import { DOMAdapter, WebWorkerAdapter } from 'pixi.js';
import { SceneHost } from './host.ts';
import type { FromRuntime, ToRuntime } from './protocol.ts';

/**
 * The scene runtime's worker: Pixi on OffscreenCanvases, off the main thread. The app creates it through
 * createSceneWorker() (index.ts) and talks to it with the messages in protocol.ts.
 */
DOMAdapter.set(WebWorkerAdapter);

const scope = self as unknown as DedicatedWorkerGlobalScope;
const pendingArt = new Map<string, (bitmap: ImageBitmap | null) => void>();

const host = new SceneHost({
  post: (message: FromRuntime) => scope.postMessage(message),
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
  host.handle(message);
});
