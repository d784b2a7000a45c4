import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterTap } from '../../src/lib/ui/after-tap';

describe('afterTap', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('makes the update in the next animation frame, not during the tap', () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    vi.stubGlobal('cancelAnimationFrame', () => undefined);
    const update = vi.fn();
    afterTap(update);
    expect(update).not.toHaveBeenCalled();
    expect(frames).toHaveLength(1);
    frames[0]!(0);
    expect(update).toHaveBeenCalledTimes(1);
  });

  it('makes it in a task after the tap where there are no frames', () => {
    vi.useFakeTimers();
    const update = vi.fn();
    afterTap(update);
    expect(update).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(update).toHaveBeenCalledTimes(1);
  });

  it('makes it at once when asked before that frame, and only once', () => {
    const frames: FrameRequestCallback[] = [];
    const cancelled: number[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    vi.stubGlobal('cancelAnimationFrame', (id: number) => cancelled.push(id));
    const order: string[] = [];
    const first = afterTap(() => order.push('asking'));
    // a request that failed before the frame: the screen's first update goes first, then the failure's
    first();
    order.push('failed');
    expect(cancelled).toEqual([1]);
    // a frame callback that ran all the same, and a second call, change nothing
    frames[0]!(0);
    first();
    expect(order).toEqual(['asking', 'failed']);
  });
});
