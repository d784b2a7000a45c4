import { MutationObserver, QueryClient } from '@tanstack/react-query';
import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import { atomWithIsMutating } from '../../src/state/mutations';

// The inventory's shared pending flag: every inventory button waits while a sale or withdrawal runs,
// wherever it was started, and no button stays disabled after one ended with no inventory on screen.

const KEY = ['inventory-action'];

/** The mutation cache tells its listeners on a later tick. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Starts a mutation under `key` that runs until `finish` is called. */
function start(client: QueryClient, key: string[]) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const done = new MutationObserver(client, { mutationKey: key, mutationFn: () => gate }).mutate();
  return {
    async finish() {
      release();
      await done;
      await tick();
    },
  };
}

describe('atomWithIsMutating', () => {
  it('follows mutations under its key while mounted', async () => {
    const client = new QueryClient();
    const store = createStore();
    const pending = atomWithIsMutating(client, { mutationKey: KEY });
    const unsubscribe = store.sub(pending, () => {});
    expect(store.get(pending)).toBe(false);

    const first = start(client, KEY);
    const second = start(client, KEY);
    await tick();
    expect(store.get(pending)).toBe(true);
    await first.finish();
    expect(store.get(pending)).toBe(true);
    await second.finish();
    expect(store.get(pending)).toBe(false);
    unsubscribe();
  });

  it('ignores mutations under other keys', async () => {
    const client = new QueryClient();
    const store = createStore();
    const pending = atomWithIsMutating(client, { mutationKey: KEY });
    const unsubscribe = store.sub(pending, () => {});
    const other = start(client, ['fairness', 'rotate']);
    await tick();
    expect(store.get(pending)).toBe(false);
    await other.finish();
    unsubscribe();
  });

  it('reads a mutation started before it was mounted', async () => {
    const client = new QueryClient();
    const store = createStore();
    const pending = atomWithIsMutating(client, { mutationKey: KEY });
    const running = start(client, KEY);
    await tick();
    const unsubscribe = store.sub(pending, () => {});
    expect(store.get(pending)).toBe(true);
    await running.finish();
    expect(store.get(pending)).toBe(false);
    unsubscribe();
  });

  it('is not left pending by a mutation that ended while it was unmounted', async () => {
    const client = new QueryClient();
    const store = createStore();
    const pending = atomWithIsMutating(client, { mutationKey: KEY });
    let unsubscribe = store.sub(pending, () => {});
    const running = start(client, KEY);
    await tick();
    expect(store.get(pending)).toBe(true);
    unsubscribe();
    await running.finish();
    unsubscribe = store.sub(pending, () => {});
    expect(store.get(pending)).toBe(false);
    unsubscribe();
  });
});
