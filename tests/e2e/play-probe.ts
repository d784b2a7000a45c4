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
