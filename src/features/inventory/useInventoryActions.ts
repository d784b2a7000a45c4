import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '../../lib/api-error';
import { useMoneyAction } from '../../lib/money-action';
import { inventoryActionAtom, inventoryActionPendingAtom, type InventoryAction } from '../../state/inventory';

/** What an action is, for its Idempotency-Key: the same tap again after a lost answer is the same intent. */
function intentOf(action: InventoryAction): string {
  if (action.kind === 'sellAll') return 'inventory:sellAll';
  if (action.kind === 'sellItems')
    return `inventory:sellItems:${action.items.map((l) => `${l.itemId}*${l.quantity}`).join(',')}`;
  return `inventory:${action.kind}:${action.itemId}`;
}

/**
 * Sell one, sell all and withdraw one (each for quantity 1, spec §2), with one shared pending flag
 * (spec §5: the buttons are disabled while pending) and the last failure's message. A tap is guarded at
 * once (a second tap before the buttons render disabled does nothing) and sent with its intent's key.
 */
export function useInventoryActions() {
  const { t } = useTranslation();
  const pending = useAtomValue(inventoryActionPendingAtom);
  const mutation = useAtomValue(inventoryActionAtom);
  const money = useMoneyAction('inventory');
  const error = mutation.error ? apiErrorText(mutation.error, t('inventory.actionError')) : null;
  const run = (action: InventoryAction) => {
    // the failure is kept by the mutation and shown under the buttons
    void money
      .run(intentOf(action), (idempotencyKey) => mutation.mutateAsync({ action, idempotencyKey }))
      ?.catch(() => undefined);
  };
  return {
    pending: pending || money.busy,
    error,
    sell: (itemId: string) => run({ kind: 'sell', itemId }),
    withdraw: (itemId: string) => run({ kind: 'withdraw', itemId }),
    sellAll: () => run({ kind: 'sellAll' }),
    /** sells a selection in one request; `onSold` once it is sold */
    sellItems: (items: { itemId: string; quantity: number }[], onSold?: () => void) => {
      const action: InventoryAction = { kind: 'sellItems', items };
      void money
        .run(intentOf(action), (idempotencyKey) => mutation.mutateAsync({ action, idempotencyKey }))
        ?.then(() => onSold?.())
        .catch(() => undefined);
    },
  };
}
