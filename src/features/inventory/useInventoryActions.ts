import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '../../lib/api-error';
import { inventoryActionAtom, inventoryActionPendingAtom, type InventoryAction } from '../../state/inventory';

/**
 * Sell one, sell all and withdraw one (each for quantity 1, spec §2), with one shared pending flag
 * (spec §5: the buttons are disabled while pending) and the last failure's message.
 */
export function useInventoryActions() {
  const { t } = useTranslation();
  const pending = useAtomValue(inventoryActionPendingAtom);
  const mutation = useAtomValue(inventoryActionAtom);
  const error = mutation.error ? apiErrorText(mutation.error, t('inventory.actionError')) : null;
  const run = (action: InventoryAction) => {
    if (!pending) mutation.mutate(action);
  };
  return {
    pending,
    error,
    sell: (itemId: string) => run({ kind: 'sell', itemId }),
    withdraw: (itemId: string) => run({ kind: 'withdraw', itemId }),
    sellAll: () => run({ kind: 'sellAll' }),
    sellItems: (items: { itemId: string; quantity: number }[], onSold?: () => void) => {
      if (!pending) mutation.mutate({ kind: 'sellItems', items }, { onSuccess: onSold });
    },
  };
}
