import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterTap } from '../../src/lib/ui/after-tap';

describe('afterTap', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('makes the update in a task after the tap, not during it', () => {
    vi.useFakeTimers();
    const update = vi.fn();
    afterTap(update);
    expect(update).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(update).toHaveBeenCalledTimes(1);
  });

  it('makes it at once when asked before that task, and only once', () => {
    vi.useFakeTimers();
    const order: string[] = [];
    const first = afterTap(() => order.push('asking'));
    // a request that failed before the task: the screen's first update goes first, then the failure's
    first();
    order.push('failed');
    vi.runAllTimers();
    first();
    expect(order).toEqual(['asking', 'failed']);
  });
});
