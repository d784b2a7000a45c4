import { createElement, type PointerEvent } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { usePress } from '../../src/lib/ui/press';

// The money buttons' press (src/lib/ui/press.ts): the action runs at the tap's release and the click the
// browser sends after it is swallowed, however the next tap's events interleave with that click (a slow
// phone sends it late: after the next tap's pointerdown, even after its pointerup).

const WAIT_MS = 1000;

type Handlers = ReturnType<typeof usePress>;

/** The props usePress gives a button whose action is `action` (rendered once, as a component would). */
function pressProps(action: () => void): Handlers {
  let props: Handlers | undefined;
  function Probe() {
    props = usePress(action);
    return null;
  }
  renderToString(createElement(Probe));
  return props!;
}

function button() {
  return {
    disabled: false,
    getBoundingClientRect: () => ({ left: 0, top: 0, right: 100, bottom: 40 }),
  };
}

/** A press's pointer event on `element`, at (x, y) in the page. */
function pointer(element: object, pointerId: number, x = 50, y = 20) {
  return {
    currentTarget: element,
    pointerId,
    isPrimary: true,
    button: 0,
    clientX: x,
    clientY: y,
  } as unknown as PointerEvent<HTMLElement>;
}

/** A pointer event of the browser: it passes the window on its way to the button's handler. */
function dispatch(
  type: string,
  handler: (event: PointerEvent<HTMLElement>) => void,
  event: PointerEvent<HTMLElement>,
) {
  window.dispatchEvent(new Event(type));
  handler(event);
}

/**
 * The browser's click on the button: it reaches the button's onClick unless swallowed on its way. Chromium's
 * names the touch it ends (`pointerId`); a browser whose click is a plain MouseEvent names none.
 */
function click(handlers: Pick<Handlers, 'onClick'>, pointerId?: number): void {
  const event = new Event('click', { cancelable: true });
  if (pointerId !== undefined) Object.assign(event, { pointerType: 'touch', pointerId });
  window.dispatchEvent(event);
  if (!event.defaultPrevented) handlers.onClick();
}

function setUp() {
  const element = button();
  let runs = 0;
  const handlers = pressProps(() => runs++);
  const down = (id: number) => dispatch('pointerdown', handlers.onPointerDown, pointer(element, id));
  const up = (id: number, x?: number, y?: number) =>
    dispatch('pointerup', handlers.onPointerUp, pointer(element, id, x, y));
  const cancel = (id: number) => dispatch('pointercancel', handlers.onPointerCancel, pointer(element, id));
  return { element, handlers, down, up, cancel, runs: () => runs };
}

/**
 * The window's capture phase, where the press listens for clicks: the listeners of a type in the order they
 * were added (Node's EventTarget does not remove a listener added with `capture`).
 */
function fakeWindow() {
  const listeners = new Map<string, Set<(event: Event) => void>>();
  const of = (type: string) => listeners.get(type) ?? listeners.set(type, new Set()).get(type)!;
  return {
    addEventListener: (type: string, listener: (event: Event) => void) => of(type).add(listener),
    removeEventListener: (type: string, listener: (event: Event) => void) => of(type).delete(listener),
    dispatchEvent(event: Event) {
      for (const listener of [...of(event.type)]) listener(event);
      return !event.defaultPrevented;
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('window', fakeWindow());
});

afterEach(() => {
  // what a test left owed runs out before the next one
  vi.advanceTimersByTime(WAIT_MS);
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

// every test twice: with Chromium's clicks, which name their touch, and with clicks that name none
describe.each([
  ['clicks naming their touch', true],
  ['clicks naming no touch', false],
])('usePress, %s', (_, named) => {
  const clickOf = (handlers: Pick<Handlers, 'onClick'>, pointerId: number) =>
    click(handlers, named ? pointerId : undefined);

  it('runs at the release, once: the click that follows is swallowed', () => {
    const press = setUp();
    press.down(1);
    press.up(1);
    expect(press.runs()).toBe(1);
    clickOf(press.handlers, 1);
    expect(press.runs()).toBe(1);
  });

  it('runs once for two quick taps when the first tap’s click comes after the second release', () => {
    const press = setUp();
    press.down(1);
    press.up(1);
    press.down(2);
    press.up(2);
    clickOf(press.handlers, 1);
    clickOf(press.handlers, 2);
    expect(press.runs()).toBe(1);
  });

  it('swallows a late click that comes after the next tap began; that tap, released after it, runs', () => {
    const press = setUp();
    press.down(1);
    press.up(1);
    press.down(2);
    clickOf(press.handlers, 1);
    expect(press.runs()).toBe(1);
    // the first tap's click has come: the second is a tap of its own
    press.up(2);
    expect(press.runs()).toBe(2);
    clickOf(press.handlers, 2);
    expect(press.runs()).toBe(2);
  });

  it('runs a click without a press (the keyboard), also right after a tap whose click has come', () => {
    const press = setUp();
    click(press.handlers);
    expect(press.runs()).toBe(1);
    press.down(1);
    press.up(1);
    clickOf(press.handlers, 1);
    expect(press.runs()).toBe(2);
    click(press.handlers);
    expect(press.runs()).toBe(3);
  });

  it('runs nothing for a cancelled press, a disabled button or a release off the button', () => {
    const press = setUp();
    press.down(1);
    press.cancel(1);
    press.up(1);
    press.element.disabled = true;
    press.down(2);
    press.up(2);
    press.element.disabled = false;
    press.down(3);
    press.up(3, 50, 120);
    press.down(4);
    press.up(4, 101, 20);
    expect(press.runs()).toBe(0);
    // none of them owes a click: the next click is the keyboard's and runs
    click(press.handlers);
    expect(press.runs()).toBe(1);
  });

  it('waits for a click that never comes only so long: then a tap and a click run again', () => {
    const press = setUp();
    press.down(1);
    press.up(1);
    vi.advanceTimersByTime(WAIT_MS);
    press.down(2);
    press.up(2);
    expect(press.runs()).toBe(2);
    clickOf(press.handlers, 2);
    click(press.handlers);
    expect(press.runs()).toBe(3);
  });

  it('swallows the click of each of two buttons released one after the other', () => {
    const a = setUp();
    const b = setUp();
    a.down(1);
    a.up(1);
    b.down(2);
    b.up(2);
    clickOf(a.handlers, 1);
    clickOf(b.handlers, 2);
    expect([a.runs(), b.runs()]).toEqual([1, 1]);
  });

  it('lets the next tap of another button click when the first disabled itself (no click comes to it)', () => {
    const press = setUp();
    press.down(1);
    press.up(1);
    // its action under way: the browser drops the click aimed at the disabled button
    press.element.disabled = true;
    let other = 0;
    window.dispatchEvent(new Event('pointerdown'));
    clickOf({ onClick: () => other++ }, 2);
    expect([press.runs(), other]).toEqual([1, 1]);
  });
});

describe('usePress, clicks naming their touch', () => {
  it('lets the click of another touch through while a click that never comes is owed (a long press)', () => {
    const press = setUp();
    press.down(1);
    press.up(1);
    let other = 0;
    window.dispatchEvent(new Event('pointerdown'));
    click({ onClick: () => other++ }, 2);
    expect([press.runs(), other]).toEqual([1, 1]);
  });
});
