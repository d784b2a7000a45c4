import type { Page } from '@playwright/test';

// When the page asks the scene worker to play, on the page's time line (performance.now(), as a composited
// layer's animation start is): a hand-off's start can be checked against it (the worker path only; the
// main-thread path posts no message).

interface Probed {
  __playPostedAt?: number;
}

/** From now on, records when the page first posts a `play` to a worker. */
export async function recordPlayPosted(page: Page): Promise<void> {
  await page.evaluate(() => {
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, ...args: Parameters<Worker['postMessage']>) {
      if ((args[0] as { type?: unknown } | null)?.type === 'play')
        (window as Probed).__playPostedAt ??= performance.now();
      return post.apply(this, args);
    } as Worker['postMessage'];
  });
}

/** When the page first posted a `play` since recordPlayPosted(), or null. */
export const playPostedAt = (page: Page): Promise<number | null> =>
  page.evaluate(() => (window as Probed).__playPostedAt ?? null);

/**
 * When the running composited motions (a wheel's face: `.scene-disc`; reels: `.scene-strip`) begin to move,
 * on the page's time line: an animation's start, or, for one that holds its first pose before it moves
 * (keyframes: the pose, the same pose, the end), the end of that hold.
 */
export const motionStarts = (page: Page, layer: '.scene-disc' | '.scene-strip'): Promise<number[]> =>
  page.evaluate(
    (selector) =>
      document
        .getAnimations()
        .filter((animation) => {
          const target = (animation.effect as KeyframeEffect | null)?.target;
          // what moves: a face's step to its landed image (an opacity) is not a motion
          const moves = (animation.effect as KeyframeEffect | null)
            ?.getKeyframes()
            .some((k) => 'transform' in k);
          return (
            animation.playState === 'running' &&
            target instanceof Element &&
            target.closest(selector) &&
            moves
          );
        })
        .map((animation) => {
          const effect = animation.effect as KeyframeEffect;
          const frames = effect.getKeyframes();
          const held = frames.length >= 3 && frames[0]!.transform === frames[1]!.transform;
          const duration = Number(effect.getComputedTiming().duration);
          return Number(animation.startTime) + (held ? frames[1]!.computedOffset * duration : 0);
        }),
    layer,
  );
