import { describe, expect, it } from 'vitest';
import type { DropEvent } from '../../contract/feed.ts';
import { compareIds } from '../../src/api/app-socket';
import { dropKey, FEED_KEPT, mergeDrops } from '../../src/state/feed';

// The client's drops feed: merging (de-duplicated by id + timestamp, newest first, 50 kept). The socket that
// brings the drops is tested in app-socket.test.ts.

function drop(
  id: number | string,
  timestamp = `2025-01-01T00:00:${String(Number(id) % 60).padStart(2, '0')}.000Z`,
): DropEvent {
  return {
    id: String(id),
    timestamp,
    user: { username: '@someone', avatar: null },
    case: { id: 'starter', name: 'Starter', imageUrl: '/assets/cases/starter.svg', imageBase64: null },
    item: { id: 'flower_pink', name: 'Pink Flower', imageUrl: '/assets/items/flower_pink.svg' },
    betId: `bet${id}`,
  };
}

describe('merging drops', () => {
  it('orders ids as numbers', () => {
    expect(compareIds('9', '10')).toBeLessThan(0);
    expect(compareIds('12345678901234567', '12345678901234568')).toBeLessThan(0);
    expect(compareIds('42', '42')).toBe(0);
  });

  it('keeps the newest first, without repeats, at most 50, and the same objects', () => {
    const a = drop(1);
    const b = drop(2);
    let kept = mergeDrops([], [b, a]);
    expect(kept.map((d) => d.id)).toEqual(['2', '1']);
    // a repeat (same id and timestamp) changes nothing: the very same array comes back
    const same = mergeDrops(kept, [drop(2), drop(1)]);
    expect(same).toBe(kept);
    // live drops arrive one by one; a late lower id lands in its place
    kept = mergeDrops(kept, [drop(10)]);
    kept = mergeDrops(kept, [drop(5)]);
    expect(kept.map((d) => d.id)).toEqual(['10', '5', '2', '1']);
    expect(kept[2]).toBe(b); // untouched drops keep their identity (memoized cards stay)
    // the same id with another timestamp is another drop (spec: de-duplicated by id plus timestamp)
    kept = mergeDrops(kept, [drop(2, '2030-01-01T00:00:00.000Z')]);
    expect(kept.filter((d) => d.id === '2')).toHaveLength(2);
    expect(new Set(kept.map(dropKey)).size).toBe(kept.length);

    const many = Array.from({ length: 80 }, (_, i) => drop(100 + i));
    const full = mergeDrops(kept, many);
    expect(full).toHaveLength(FEED_KEPT);
    expect(full[0]!.id).toBe('179');
    expect(full.at(-1)!.id).toBe('130');
  });
});
