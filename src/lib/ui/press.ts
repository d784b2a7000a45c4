import { useLayoutEffect, useMemo, useRef, type PointerEvent } from 'react';

/** The longest a released tap's click is waited for (a touch's comes after the browser's next frame), ms. */
const CLICK_WAIT_MS = 1000;

/** The press under way on an element: its pointer. */
const pressing = new WeakMap<Element, number>();

/** A release that ran (or was refused for) its element: the click the browser sends for it has not come. */
interface OwedClick {
  element: Element;
  pointerId: number;
  /** when the wait for it runs out (Date.now()) */
  until: number;
}

/** The clicks owed by releases, oldest first (the browser sends a tap's click after the tap's release). */
const owed: OwedClick[] = [];

function settle(click: OwedClick): void {
  const at = owed.indexOf(click);
  if (at >= 0) owed.splice(at, 1);
  if (owed.length === 0) {
    window.removeEventListener('click', swallow, true);
    window.removeEventListener('pointerdown', forgetDisabled, true);
  }
}

/**
 * Forgets the clicks waited for too long, checked when the next event that asks comes (a click, a press
 * beginning or released) rather than by a timer: a timer's task would wake the page's main thread a second
 * after every tap, in the middle of the spin that tap started.
 */
function forgetExpired(): void {
  const now = Date.now();
  for (const click of owed.filter((c) => c.until <= now)) settle(click);
}

/**
 * An owed click is swallowed wherever it lands (the screen may have changed under the finger). A click that
 * names its pointer (Chromium's: a PointerEvent with the touch's own pointerId, new for every touch) is the
 * release's of that pointer or none; one that does not (a browser whose click is a plain MouseEvent) is taken
 * for the oldest release's.
 */
function swallow(event: Event): void {
  forgetExpired();
  const named = event as Partial<Pick<globalThis.PointerEvent, 'pointerType' | 'pointerId'>>;
  const pointer = named.pointerType ? named.pointerId : undefined;
  const click = pointer === undefined ? owed[0] : owed.find((c) => c.pointerId === pointer);
  if (!click) return;
  event.stopPropagation();
  event.preventDefault();
  settle(click);
}

/**
 * The browser sends no click to a disabled button: the click of a release whose button has disabled itself
 * (its action under way) is not waited for once another tap begins, lest it be that tap's click taken.
 */
function forgetDisabled(): void {
  forgetExpired();
  for (const click of [...owed]) if ((click.element as HTMLButtonElement).disabled) settle(click);
}

/**
 * Swallows the click the browser sends for a release on `element`, when it comes or until CLICK_WAIT_MS.
 * Another tap beginning meanwhile does not end the wait (but see forgetDisabled): on a slow phone the first
 * tap's click may come after the second tap's pointerdown, even after its pointerup.
 */
function oweClick(element: Element, pointerId: number): void {
  if (owed.length === 0) {
    window.addEventListener('click', swallow, true);
    window.addEventListener('pointerdown', forgetDisabled, true);
  }
  owed.push({ element, pointerId, until: Date.now() + CLICK_WAIT_MS });
}

/**
 * Button props that run `action` as the tap is released (pointerup) rather than at its click. On a phone
 * the browser sends the click only after it has drawn a frame for the touch (with a slow CPU, tens to
 * hundreds of ms): a money action's request leaves at the release instead, before that frame. A tap that
 * becomes a scroll is cancelled (pointercancel) and runs nothing, a press that began elsewhere, ended off
 * the button or on a disabled button runs nothing, and the release's own click is swallowed, so one tap
 * runs the action once and its click cannot reach what the screen shows by then; a second tap before that
 * click has come runs nothing (see onPointerUp). A click without a press (the keyboard, assistive
 * technology) runs it as before.
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
        // a second release before the click of the one that ran (a double tap, a slow phone's late click)
        // is the same intent: it runs nothing, and its own click is swallowed too. Once that click has come
        // (or the wait has run out), a tap is a new intent; whether it may run is the action's own guard.
        forgetExpired();
        const again = owed.some((click) => click.element === element);
        oweClick(element, event.pointerId);
        if (!again) latest.current();
      },
      onClick() {
        latest.current();
      },
    }),
    [],
  );
}
