import { useLayoutEffect, useMemo, useRef, type PointerEvent } from 'react';

/** The longest a released tap's click is waited for (a touch's comes after the browser's next frame), ms. */
const CLICK_WAIT_MS = 1000;

/** The press under way on an element: its pointer. */
const pressing = new WeakMap<Element, number>();

/**
 * Swallows the click the browser sends for a tap whose release already ran its action, wherever it lands
 * (the screen may have changed under the finger by then), until the next tap begins or CLICK_WAIT_MS.
 */
function swallowClick(): void {
  const done = () => {
    clearTimeout(timer);
    window.removeEventListener('click', swallow, true);
    window.removeEventListener('pointerdown', done, true);
  };
  const swallow = (event: Event) => {
    event.stopPropagation();
    event.preventDefault();
    done();
  };
  const timer = setTimeout(done, CLICK_WAIT_MS);
  window.addEventListener('click', swallow, true);
  window.addEventListener('pointerdown', done, true);
}

/**
 * Button props that run `action` as the tap is released (pointerup) rather than at its click. On a phone
 * the browser sends the click only after it has drawn a frame for the touch (with a slow CPU, tens to
 * hundreds of ms): a money action's request leaves at the release instead, before that frame. A tap that
 * becomes a scroll is cancelled (pointercancel) and runs nothing, a press that began elsewhere, ended off
 * the button or on a disabled button runs nothing, and the release's own click is swallowed, so one tap runs the action once
 * and its click cannot reach what the screen shows by then; a click without a press (the keyboard,
 * assistive technology) runs it as before.
 */
export function usePress(action: () => void) {
  const latest = useRef(action);
  useLayoutEffect(() => {
    latest.current = action;
  });
  return useMemo(
    () => ({
      onPointerDown(event: PointerEvent<HTMLElement>) {
        if (!event.isPrimary || event.button !== 0) return;
        pressing.set(event.currentTarget, event.pointerId);
      },
      onPointerCancel(event: PointerEvent<HTMLElement>) {
        pressing.delete(event.currentTarget);
      },
      onPointerUp(event: PointerEvent<HTMLElement>) {
        const element = event.currentTarget;
        if (pressing.get(element) !== event.pointerId) return;
        pressing.delete(element);
        // a disabled button gets pointer events, never a click: neither runs it
        if ((element as HTMLButtonElement).disabled) return;
        // a touch is captured by the element it began on: released off it (the finger slid away), it is
        // no tap of the button, as a click would not be
        const box = element.getBoundingClientRect();
        if (
          event.clientX < box.left ||
          event.clientX > box.right ||
          event.clientY < box.top ||
          event.clientY > box.bottom
        )
          return;
        swallowClick();
        latest.current();
      },
      onClick() {
        latest.current();
      },
    }),
    [],
  );
}
