import { atomWithMutation, atomWithQuery } from 'jotai-tanstack-query';
import type {
  InventoryEntry,
  InventoryResponse,
  SellResponse,
  Withdrawal,
  WithdrawResponse,
  WithdrawalsResponse,
} from '../../contract/inventory.ts';
import { api } from '../api';
import { atomWithIsMutating } from './mutations';
import { balanceLiveAtom, mutationKeys, queryKeys } from './queries';
import { queryClient } from './store';

/** GET /inventory → what the player holds (data: InventoryEntry[]), dearest first. */
export const inventoryAtom = atomWithQuery(() => ({
  queryKey: queryKeys.inventory,
  queryFn: async (): Promise<InventoryEntry[]> =>
    (await api.request<InventoryResponse>('/inventory')).inventory,
}));

/** GET /inventory/withdrawals → the player's withdrawal requests, newest first. */
export const withdrawalsAtom = atomWithQuery((get) => {
  // the app socket tells each change of a withdrawal (src/state/live.ts); while it is down, and seldom as a
  // safety net while it is up, the timeline of one on its way is read again
  const live = get(balanceLiveAtom);
  return {
    queryKey: queryKeys.withdrawals,
    queryFn: async (): Promise<Withdrawal[]> =>
      (await api.request<WithdrawalsResponse>('/inventory/withdrawals')).withdrawals,
    refetchInterval: (query: { state: { data?: Withdrawal[] } }) =>
      query.state.data?.some((w) => w.status === 'pending' || w.status === 'sending')
        ? live
          ? WITHDRAWAL_SAFETY_MS
          : WITHDRAWAL_WATCH_MS
        : false,
  };
});

/** How often the withdrawals are read while one is on its way and the app socket is down. */
const WITHDRAWAL_WATCH_MS = 2000;
/** ... and while it is up: the pushes bring every change; this only catches one a push missed. */
const WITHDRAWAL_SAFETY_MS = 30_000;

/** A money request with the tap's Idempotency-Key (made by the money-action guard), kept across retries. */
function post<T>(path: string, body: Record<string, unknown>, idempotencyKey?: string): Promise<T> {
  return api.money<T>(path, { body, idempotencyKey });
}

/**
 * After a sell, sell-all or withdraw (spec §7: the inventory is refreshed): show the balance the server
 * answered at once, and refetch the inventory (with the withdrawals) and the balance.
 */
async function refreshAfterInventoryChange(balance?: string): Promise<void> {
  if (typeof balance === 'string') {
    await queryClient.cancelQueries({ queryKey: queryKeys.balance });
    queryClient.setQueryData(queryKeys.balance, balance);
  }
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.inventory }),
    queryClient.invalidateQueries({ queryKey: queryKeys.balance }),
    queryClient.invalidateQueries({ queryKey: queryKeys.profile }),
  ]);
}

/** POST /inventory/sell {itemId, quantity}: the one sell of a won item (inventory page and win screen). */
export async function sellInventoryItem(
  itemId: string,
  quantity = 1,
  idempotencyKey?: string,
): Promise<SellResponse> {
  const answer = await post<SellResponse>('/inventory/sell', { itemId, quantity }, idempotencyKey);
  await refreshAfterInventoryChange(answer.balance);
  return answer;
}

/** POST /inventory/sell {sellAll: true} */
async function sellWholeInventory(idempotencyKey?: string): Promise<SellResponse> {
  const answer = await post<SellResponse>('/inventory/sell', { sellAll: true }, idempotencyKey);
  await refreshAfterInventoryChange(answer.balance);
  return answer;
}

/** POST /inventory/sell {items}: a selection (the inventory's select mode, the win screen's Sell all), all or nothing */
export async function sellInventoryItems(
  items: readonly { itemId: string; quantity: number }[],
  idempotencyKey?: string,
): Promise<SellResponse> {
  const answer = await post<SellResponse>('/inventory/sell', { items }, idempotencyKey);
  await refreshAfterInventoryChange(answer.balance);
  return answer;
}

/** POST /inventory/withdraw {itemId, quantity} */
async function withdrawInventoryItem(
  itemId: string,
  quantity = 1,
  idempotencyKey?: string,
): Promise<Withdrawal> {
  const answer = await post<WithdrawResponse>('/inventory/withdraw', { itemId, quantity }, idempotencyKey);
  await refreshAfterInventoryChange();
  return answer.withdrawal;
}

/** What an inventory button asks for: sell one, withdraw one (quantity 1 each, spec §2), or sell all. */
export type InventoryAction =
  | { kind: 'sell'; itemId: string }
  | { kind: 'withdraw'; itemId: string }
  | { kind: 'sellAll' }
  | { kind: 'sellItems'; items: { itemId: string; quantity: number }[] };

/**
 * The inventory's actions (on the inventory screen and the profile): one mutation atom, its failure shown
 * under the buttons. Every request is a money request with its tap's Idempotency-Key.
 */
export const inventoryActionAtom = atomWithMutation<
  void,
  { action: InventoryAction; idempotencyKey: string },
  Error
>(() => ({
  mutationKey: mutationKeys.inventoryAction,
  mutationFn: async ({ action, idempotencyKey }) => {
    if (action.kind === 'sell') await sellInventoryItem(action.itemId, 1, idempotencyKey);
    else if (action.kind === 'withdraw') await withdrawInventoryItem(action.itemId, 1, idempotencyKey);
    else if (action.kind === 'sellItems') await sellInventoryItems(action.items, idempotencyKey);
    else await sellWholeInventory(idempotencyKey);
  },
}));

/**
 * Whether an inventory action is running, wherever it was started (a sale begun on the profile still holds
 * the inventory screen's buttons): while it is, every inventory button is disabled (spec §5).
 */
export const inventoryActionPendingAtom = atomWithIsMutating(queryClient, {
  mutationKey: mutationKeys.inventoryAction,
});
