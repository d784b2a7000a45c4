import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import type { InventoryEntry } from '../../../contract/inventory.ts';
import { formatTon } from '../../lib/format';
import { ArtImage } from '../../lib/ui/ArtImage';
import { TonIcon } from '../../lib/ui/TonIcon';
import { inventoryAtom } from '../../state/inventory';
import type { useInventoryActions } from './useInventoryActions';
import './inventory.css';
import { useCatalogueTexts } from '../../state/catalogue-texts';

type Actions = ReturnType<typeof useInventoryActions>;

interface InventoryCardProps {
  entry: InventoryEntry;
  actions: Actions;
}

/** One item: image (placeholder on failure), name, 'Quantity: n', price with 1 decimal, Sell and Withdraw. */
function InventoryCard({ entry, actions }: InventoryCardProps) {
  const { t } = useTranslation();
  const { itemName } = useCatalogueTexts();
  const disabled = actions.pending || entry.quantity === 0;
  return (
    <li className="inventory-card" data-testid="inventory-item" data-item-id={entry.item.id}>
      <div className="inventory-card__art">
        <ArtImage src={entry.item.imageUrl} className="inventory-card__img" />
      </div>
      <span className="inventory-card__name">{itemName(entry.item)}</span>
      <span className="inventory-card__quantity" data-testid="inventory-quantity">
        {t('inventory.quantity', { n: entry.quantity })}
      </span>
      <span className="inventory-card__price" data-testid="inventory-price">
        <TonIcon size={14} />
        {formatTon(entry.item.price, 1)}
      </span>
      <div className="inventory-card__actions">
        <button
          type="button"
          className="button inventory-card__button"
          disabled={disabled}
          onClick={() => actions.sell(entry.item.id)}
          data-testid="inventory-sell"
        >
          {t('inventory.sell')}
        </button>
        <button
          type="button"
          className="button button--ghost inventory-card__button"
          disabled={disabled}
          onClick={() => actions.withdraw(entry.item.id)}
          data-testid="inventory-withdraw"
        >
          {t('inventory.withdraw')}
        </button>
      </div>
    </li>
  );
}

/** The two-column inventory grid with its loading spinner, load-error text and empty text (spec §2, §8). */
export function InventoryGrid({ actions }: { actions: Actions }) {
  const { t } = useTranslation();
  const { data, isPending, isError } = useAtomValue(inventoryAtom);

  if (isPending) {
    return (
      <div
        className="inventory-state"
        data-testid="inventory-loading"
        role="status"
        aria-label={t('app.loading')}
      >
        <span className="inventory-spinner" aria-hidden="true" />
      </div>
    );
  }
  if (isError) {
    return (
      <p className="inventory-state inventory-state--error" data-testid="inventory-error" role="alert">
        {t('inventory.loadError')}
      </p>
    );
  }
  if (data.length === 0) {
    return (
      <p className="inventory-state" data-testid="inventory-empty">
        {t('inventory.empty')}
      </p>
    );
  }
  return (
    <ul className="inventory-grid" data-testid="inventory-grid">
      {data.map((entry) => (
        <InventoryCard key={entry.id} entry={entry} actions={actions} />
      ))}
    </ul>
  );
}

/** Sell all: disabled while an action is pending or when there is nothing to sell (spec §5). */
export function SellAllButton({ actions }: { actions: Actions }) {
  const { t } = useTranslation();
  const { data } = useAtomValue(inventoryAtom);
  const empty = !data || data.every((e) => e.quantity === 0);
  return (
    <button
      type="button"
      className="button inventory-sell-all"
      disabled={actions.pending || empty}
      onClick={actions.sellAll}
      data-testid="inventory-sell-all"
    >
      {t('inventory.sellAll')}
    </button>
  );
}

/** The last failed action's message, if any. */
export function InventoryActionError({ actions }: { actions: Actions }) {
  if (!actions.error) return null;
  return (
    <p className="inventory-action-error" role="alert" data-testid="inventory-action-error">
      {actions.error}
    </p>
  );
}
