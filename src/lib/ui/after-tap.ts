import { flushSync } from 'react-dom';

/**
 * A screen's update for a tap (its buttons held, "Opening…", the roulette's stage shown), made once the
 * tap's request has left, in the first frame after the tap: committed inside that frame's animation-frame
 * callback, so the frame the tap makes anyway (its :active style) draws it, while the request is out.
 *
 * Not in the tap's handler: the request would wait for the render. Not as a transition: its slices give way
 * to every other task and frame, and after a tap those are many (the touch's compatibility mouse events);
 * on a slow phone it was still committing when the answer came, its frame then holding back the answer's
 * handling and the page's part of the scene's start. Not in a timer task either: on a slow phone timers
 * wait behind the tap's input and frames, and the render (and its own frame) landed on the answer.
 *
 * Returns a function that makes the update at once if it has not been made yet (once; later calls do
 * nothing): a path that updates the screen again first (an answer, or a failure, before that frame; a
 * hidden page draws no frames) calls it first, so the screen's updates keep their order. Made that way the
 * update is not forced through: it renders with the updates that follow it.
 */
export function afterTap(update: () => void): () => void {
  let pending = true;
  const run = (inFrame: boolean) => {
    if (!pending) return;
    pending = false;
    cancel();
    if (inFrame) flushSync(update);
    else update();
  };
  const cancel = nextFrame(() => run(true));
  return () => run(false);
}

/** Runs `task` in the next animation frame (a timer's task where there are no frames); returns a cancel. */
function nextFrame(task: () => void): () => void {
  if (typeof requestAnimationFrame === 'function') {
    const frame = requestAnimationFrame(task);
    return () => cancelAnimationFrame(frame);
  }
  const timer = setTimeout(task, 0);
  return () => clearTimeout(timer);
}
