import {
  receivedLayers,
  type CompositedLayer,
  type FromRuntime,
  type ToRuntime,
} from '../../../scenes/runtime';
import type { Compositor } from '../../../scenes/main-thread';

/** What the port drives on the page: the compositor of compositor.ts and the page's frames. */
export interface CompositorPortOptions {
  compositor: {
    preload(image: Blob): void;
    show(surface: number, layers: CompositedLayer[]): void;
    hide(surface: number): void;
    standBy(surface: number, layers: readonly CompositedLayer[]): void;
    /** The surface's canvas is going: its layers, shown or staged, go now. */
    close(surface: number): void;
  };
  /** Answers the worker. */
  send(message: ToRuntime): void;
  /** Resolves once the layers' images are decoded (or have failed to). */
  decoded(layers: readonly CompositedLayer[]): Promise<void>;
  /** Lets an image go (no layer names it again). */
  release(image: Blob): void;
  /** Calls back once what the page has changed so far is on screen: after its next frame. */
  afterFrame(callback: () => void): void;
  /** The page's performance.timeOrigin. */
  timeOrigin: number;
}

export interface CompositorPort {
  /** Runs a compositor message from the worker; false for any other message. */
  handle(message: FromRuntime): boolean;
  /** The surface's canvas is going: its layers go now, and a show still on its way is dropped. */
  close(surface: number): void;
}

/**
 * Each surface's shows and hides, counted: `next(surface)` starts a new one and returns whether it is still
 * the surface's latest, so what an older one still waits for is dropped once a newer one came.
 */
function surfaceTurns(): (surface: number) => () => boolean {
  const turns = new Map<number, number>();
  return (surface) => {
    const turn = (turns.get(surface) ?? 0) + 1;
    turns.set(surface, turn);
    return () => turns.get(surface) === turn;
  };
}

/**
 * The page's end of the worker's compositor messages (the worker's end is scenes/runtime/remote-compositor.ts).
 * The worker's canvas frames and the page's DOM reach the screen separately, so neither end of a hand-off
 * may leave a frame without the moving part:
 *  - `show`: the layers go under the canvas once their images are decoded (a play may start before they
 *    are), and `shown` is answered two page frames later (the next one commits them, and its tiles are
 *    rasterized and drawn before the one after): until then the worker draws the same pose over them;
 *  - `hide`: the worker sends it right after drawing them again on its canvas; they are removed two page
 *    frames later, once that canvas frame is on screen;
 *  - `stand-by`: the discs and strips wait under the canvas, unseen, once their images are decoded (a later
 *    stand-by of the surface drops an earlier one still decoding).
 * Each surface's show and hide count: an older one still waiting does nothing once a newer one came.
 */
export function compositorPort(options: CompositorPortOptions): CompositorPort {
  const { compositor } = options;
  const images = new Map<number, Blob>();
  const next = surfaceTurns();
  const nextStandBy = surfaceTurns();

  return {
    handle(message) {
      switch (message.type) {
        case 'preload':
          images.set(message.image, message.blob);
          compositor.preload(message.blob);
          return true;
        case 'release': {
          const blob = images.get(message.image);
          images.delete(message.image);
          if (blob) options.release(blob);
          return true;
        }
        case 'show': {
          const { surface, handoff } = message;
          const current = next(surface);
          const layers = receivedLayers(message.layers, (n) => images.get(n), options.timeOrigin);
          void options.decoded(layers).then(() => {
            if (!current()) return;
            compositor.show(surface, layers);
            // the next frame commits them, and the page's compositor draws them once their changed tiles
            // are rasterized (a strip's restyled cards, a face shown); the frame after it commits only once
            // those are in: the canvas stops drawing them after that one, not before they are drawn
            options.afterFrame(() =>
              options.afterFrame(() => {
                if (current()) options.send({ type: 'shown', handoff });
              }),
            );
          });
          return true;
        }
        case 'stand-by': {
          const { surface } = message;
          const current = nextStandBy(surface);
          const layers = receivedLayers(message.layers, (n) => images.get(n), options.timeOrigin);
          void options.decoded(layers).then(() => {
            if (current()) compositor.standBy(surface, layers);
          });
          return true;
        }
        case 'hide': {
          const { surface } = message;
          const current = next(surface);
          options.afterFrame(() =>
            options.afterFrame(() => {
              if (current()) compositor.hide(surface);
            }),
          );
          return true;
        }
        default:
          return false;
      }
    },
    close(surface) {
      next(surface);
      nextStandBy(surface);
      compositor.close(surface);
    },
  };
}

/** What the page's own-thread compositor drives: the compositor of compositor.ts and the page's frames. */
export interface OwnThreadCompositorOptions {
  compositor: CompositorPortOptions['compositor'] & {
    /**
     * Whether every one of these layers is a disc or strip staged under the surface's canvas (decoded,
     * painted).
     */
    showsStaged(surface: number, layers: readonly CompositedLayer[]): boolean;
  };
  decoded: CompositorPortOptions['decoded'];
}

/**
 * The compositor as the runtime on the page's own thread (`?scenes=main`) sees it. The runtime draws a
 * play's first frame itself and hands the play over in a task after it, so that frame never waits for the
 * layers' elements to be built, styled and painted. show() puts them under the canvas as soon as their
 * images are decoded and resolves then: the canvas's next frame, drawn without them, and the page's frame
 * that paints them are one frame on this thread, so the runtime draws two frames of the play, not the four
 * of a show that waited a page frame before building and another after. A play whose layers are all discs
 * staged under the canvas (decoded, on their own layers, unseen) is shown at once instead: showing one is
 * an opacity change and an animation, so the runtime asks showsAtOnce() as the play starts and hands it
 * over before its first frame, which draws the canvas without them. `hide` removes them at once: the canvas
 * has just drawn them again in the same page frame. A later show or hide of the surface drops a show still
 * waiting (its promise never resolves). Staged discs go under the canvas once decoded.
 */
export function ownThreadCompositor(options: OwnThreadCompositorOptions): Compositor {
  const { compositor } = options;
  const next = surfaceTurns();
  const nextStandBy = surfaceTurns();

  return {
    preload: (image) => compositor.preload(image),
    standBy(surface, layers) {
      const current = nextStandBy(surface);
      void options.decoded(layers).then(() => {
        if (current()) compositor.standBy(surface, layers);
      });
    },
    showsAtOnce: (surface, layers) => compositor.showsStaged(surface, layers),
    show(surface, layers) {
      const current = next(surface);
      if (compositor.showsStaged(surface, layers)) {
        compositor.show(surface, layers);
        return;
      }
      return new Promise<void>((resolve) => {
        void options.decoded(layers).then(() => {
          if (!current()) return;
          compositor.show(surface, layers);
          resolve();
        });
      });
    },
    hide(surface) {
      next(surface);
      compositor.hide(surface);
    },
  };
}
