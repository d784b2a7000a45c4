import { useIsMutating, useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '../../lib/api-error';
import { sellInventoryItem, sellWholeInventory, withdrawInventoryItem } from '../../state/inventory';

/** Every inventory action shares this key: while any of them runs, all inventory buttons wait. */
const INVENTORY_ACTION = ['inventory-action'];

type Action = { kind: 'sell'; itemId: string } | { kind: 'withdraw'; itemId: string } | { kind: 'sellAll' };

/**
 * Sell one, sell all and withdraw one (each for quantity 1, spec §2), with one shared pending flag
 * (spec §5: the buttons are disabled while pending) and the last failure's message.
 */
export function useInventoryActions() {
  const { t } = useTranslation();
  const pending = useIsMutating({ mutationKey: INVENTORY_ACTION }) > 0;
  const mutation = useMutation({
    mutationKey: INVENTORY_ACTION,
    mutationFn: async (action: Action): Promise<void> => {
      if (action.kind === 'sell') await sellInventoryItem(action.itemId, 1);
      else if (action.kind === 'withdraw') await withdrawInventoryItem(action.itemId, 1);
      else await sellWholeInventory();
    },
  });
  const error = mutation.error ? apiErrorText(mutation.error, t('inventory.actionError')) : null;
  const run = (action: Action) => {
    if (!pending) mutation.mutate(action);
  };
  return {
    pending,
    error,
    sell: (itemId: string) => run({ kind: 'sell', itemId }),
    withdraw: (itemId: string) => run({ kind: 'withdraw', itemId }),
    sellAll: () => run({ kind: 'sellAll' }),
  };
}
