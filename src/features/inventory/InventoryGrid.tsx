import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { InventoryEntry } from '../../../contract/inventory.ts';
import { formatTon } from '../../lib/format';
import { ArtImage } from '../../lib/ui/ArtImage';
import { ConfirmDialog } from '../../lib/ui/ConfirmDialog';
import { QueryState } from '../../lib/ui/QueryState';
import { TonIcon } from '../../lib/ui/TonIcon';
import { inventoryAtom } from '../../state/inventory';
import type { useInventoryActions } from './useInventoryActions';
import { sortInventory, worthOf, type InventorySort } from './sort';
import './inventory.css';
import { useCatalogueTexts } from '../../state/catalogue-texts';

type Actions = ReturnType<typeof useInventoryActions>;

/** The inventory's select mode: which entries are picked (all of each one's units), and the toggle. */
export interface InventorySelection {
  selected: ReadonlySet<string>;
  toggle(itemId: string): void;
}

interface InventoryCardProps {
  entry: InventoryEntry;
  actions: Actions;
  selection?: InventorySelection;
}

/**
 * One item: image (placeholder on failure), name, 'Quantity: n', price with 1 decimal, Sell and Withdraw;
 * in select mode the whole card is one toggle instead.
 */
function InventoryCard({ entry, actions, selection }: InventoryCardProps) {
  const { t } = useTranslation();
  const { itemName } = useCatalogueTexts();
  const [confirming, setConfirming] = useState(false);
  const disabled = actions.pending || entry.quantity === 0;
  if (selection) {
    const picked = selection.selected.has(entry.item.id);
    return (
      <li
        className="inventory-card"
        data-testid="inventory-item"
        data-item-id={entry.item.id}
        data-rarity={entry.item.rarity}
        data-selected={picked || undefined}
      >
        <button
          type="button"
          className="inventory-card__pick"
          aria-pressed={picked}
          disabled={actions.pending}
          onClick={() => selection.toggle(entry.item.id)}
          data-testid="inventory-pick"
        >
          <span className="inventory-card__check" aria-hidden="true" />
          <span className="inventory-card__art">
            <ArtImage src={entry.item.imageUrl} className="inventory-card__img" />
          </span>
          <span className="inventory-card__name">{itemName(entry.item)}</span>
          <span className="inventory-card__quantity">{t('inventory.quantity', { n: entry.quantity })}</span>
          <span className="inventory-card__price">
            <TonIcon size={14} />
            {formatTon(entry.item.price, 1)}
          </span>
        </button>
      </li>
    );
  }
  return (
    <li
      className="inventory-card"
      data-testid="inventory-item"
      data-item-id={entry.item.id}
      data-rarity={entry.item.rarity}
    >
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
          disabled={disabled || !entry.withdrawable}
          onClick={() => setConfirming(true)}
          aria-haspopup="dialog"
          aria-describedby={entry.withdrawable ? undefined : `not-withdrawable-${entry.id}`}
          data-testid="inventory-withdraw"
        >
          {t('inventory.withdraw')}
        </button>
      </div>
      {!entry.withdrawable && (
        <span
          id={`not-withdrawable-${entry.id}`}
          className="inventory-card__note"
          data-testid="inventory-not-withdrawable"
        >
          {t('telegram.notWithdrawable')}
        </span>
      )}
      {confirming && (
        <ConfirmDialog
          testId="withdraw-dialog"
          title={t('telegram.withdrawTitle')}
          confirmLabel={t('telegram.withdrawConfirm')}
          cancelLabel={t('common.cancel')}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            actions.withdraw(entry.item.id);
          }}
        >
          <p className="inventory-sell-all__text" data-testid="withdraw-dialog-text">
            {t('telegram.withdrawText', { item: itemName(entry.item) })}
          </p>
        </ConfirmDialog>
      )}
    </li>
  );
}

interface InventoryGridProps {
  actions: Actions;
  /** the order to show (the server's: dearest first) */
  sort?: InventorySort;
  /** select mode: cards toggle instead of offering Sell and Withdraw */
  selection?: InventorySelection;
}

/** The two-column inventory grid with its loading, load-error, offline and empty states (spec §2, §8). */
export function InventoryGrid({ actions, sort = 'price', selection }: InventoryGridProps) {
  const { t } = useTranslation();
  const query = useAtomValue(inventoryAtom);
  return (
    <QueryState
      query={query}
      testId="inventory"
      compact
      errorTitle={t('inventory.loadError')}
      isEmpty={(entries) => entries.length === 0}
      empty={<p className="inventory-state">{t('inventory.empty')}</p>}
    >
      {(entries) => (
        <ul className="inventory-grid" data-testid="inventory-grid">
          {sortInventory(entries, sort).map((entry) => (
            <InventoryCard key={entry.id} entry={entry} actions={actions} selection={selection} />
          ))}
        </ul>
      )}
    </QueryState>
  );
}

/**
 * Sell all: disabled while an action is pending or when there is nothing to sell (spec §5). It asks first,
 * with how many items go and the exact total they bring at the server's prices.
 */
export function SellAllButton({ actions }: { actions: Actions }) {
  const { t } = useTranslation();
  const { data } = useAtomValue(inventoryAtom);
  const [asking, setAsking] = useState(false);
  const held = (data ?? []).filter((e) => e.quantity > 0);
  const empty = held.length === 0;
  const count = held.reduce((sum, e) => sum + e.quantity, 0);
  const total = formatTon(worthOf(held), 2);
  return (
    <>
      <button
        type="button"
        className="button inventory-sell-all"
        disabled={actions.pending || empty}
        onClick={() => setAsking(true)}
        aria-haspopup="dialog"
        data-testid="inventory-sell-all"
      >
        {t('inventory.sellAll')}
      </button>
      {asking && !empty && (
        <ConfirmDialog
          testId="sell-all-dialog"
          title={t('inventory.sellAllTitle')}
          confirmLabel={t('inventory.sellAllConfirm', { total })}
          cancelLabel={t('common.cancel')}
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            actions.sellAll();
          }}
        >
          <p className="inventory-sell-all__text" data-testid="sell-all-total">
            {t('inventory.sellAllText', { count, total })}
          </p>
        </ConfirmDialog>
      )}
    </>
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
