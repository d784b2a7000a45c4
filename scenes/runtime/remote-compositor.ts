import { sendLayers } from './composite-wire.ts';
import type { Compositor } from './host.ts';
import type { FromRuntime } from './protocol.ts';

/** The page's compositor as a worker reaches it: through messages, answered by `shown`. */
export interface RemoteCompositor extends Compositor {
  /** The page's answer to a `show`: its layers are on screen. */
  shown(handoff: number): void;
}

/**
 * The worker's stand-in for the page's compositor (see Compositor in host.ts): each image is posted once
 * with a number (and released when the runtime lets it go), a play's layers are posted with their keyframes
 * on the shared time line, and show() resolves when the page answers that it shows them; staged discs are
 * posted as they come. A surface's later show or hide drops the wait of an earlier show (its promise never
 * resolves: that hand-off is over).
 */
export function remoteCompositor(
  post: (message: FromRuntime) => void,
  timeOrigin: number = performance.timeOrigin,
): RemoteCompositor {
  const numbers = new WeakMap<Blob, number>();
  let nextImage = 1;
  let nextHandoff = 1;
  const waiting = new Map<number, { surface: number; resolve: () => void }>();
  // the page keeps an image (and its object URL) until no layer can name it again
  const released = new FinalizationRegistry<number>((image) => post({ type: 'release', image }));

  function numberOf(blob: Blob): number {
    let image = numbers.get(blob);
    if (image === undefined) {
      image = nextImage++;
      numbers.set(blob, image);
      released.register(blob, image);
      post({ type: 'preload', image, blob });
    }
    return image;
  }

  function forget(surface: number): void {
    for (const [handoff, wait] of waiting) if (wait.surface === surface) waiting.delete(handoff);
  }

  return {
    preload(blob) {
      numberOf(blob);
    },
    show(surface, layers) {
      forget(surface);
      const handoff = nextHandoff++;
      // an image not preloaded yet goes first, in its own message
      const sent = sendLayers(layers, numberOf, timeOrigin);
      post({ type: 'show', surface, handoff, layers: sent });
      return new Promise<void>((resolve) => waiting.set(handoff, { surface, resolve }));
    },
    standBy(surface, layers) {
      post({ type: 'stand-by', surface, layers: sendLayers(layers, numberOf, timeOrigin) });
    },
    hide(surface) {
      forget(surface);
      post({ type: 'hide', surface });
    },
    shown(handoff) {
      const wait = waiting.get(handoff);
      waiting.delete(handoff);
      wait?.resolve();
    },
  };
}
