/**
 * A screen's update for a tap (its buttons held, "Spinning…"), made in a task of its own right after the
 * tap's, once the tap's request has left: rendered there in one piece, while the request is out, not in
 * the tap's handler and not sliced into a transition. A transition's slices give way to every other task
 * and frame, and after a tap those are many (the touch's compatibility mouse events, its :active style):
 * on a slow phone the transition was still committing when the answer came, its frame then holding back
 * the page's part of the wheel's start (the face taken by the page's compositor) past the motion's start.
 *
 * Returns a function that makes the update at once if it has not been made yet (once; later calls do
 * nothing): a path that updates the screen again before that task (a request that failed at once) calls it
 * first, so the screen's updates keep their order.
 */
export function afterTap(update: () => void): () => void {
  let pending = true;
  const run = () => {
    if (!pending) return;
    pending = false;
    clearTimeout(timer);
    update();
  };
  const timer = setTimeout(run, 0);
  return run;
}
