import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { InventoryEntry } from '../../../contract/inventory.ts';
import { formatTon } from '../../lib/format';
import { ConfirmDialog } from '../../lib/ui/ConfirmDialog';
import { TonIcon } from '../../lib/ui/TonIcon';
import { inventoryAtom } from '../../state/inventory';
import type { InventorySelection } from './InventoryGrid';
import { INVENTORY_SORTS, worthOf, type InventorySort } from './sort';
import type { useInventoryActions } from './useInventoryActions';

type Actions = ReturnType<typeof useInventoryActions>;

/** Local storage key of the player's inventory order. */
const SORT_KEY = 'inventory-sort';

function readSort(): InventorySort {
  try {
    const stored = localStorage.getItem(SORT_KEY);
    return INVENTORY_SORTS.find((s) => s === stored) ?? 'price';
  } catch {
    return 'price';
  }
}

/** The inventory's order, kept for the next visit. */
export function useInventorySort(): [InventorySort, (sort: InventorySort) => void] {
  const [sort, setSort] = useState(readSort);
  return [
    sort,
    (next) => {
      setSort(next);
      try {
        localStorage.setItem(SORT_KEY, next);
      } catch {
        // private mode: the order lasts for this visit
      }
    },
  ];
}

/** The held entries, by item id. */
function useHeld(): InventoryEntry[] {
  const { data } = useAtomValue(inventoryAtom);
  return (data ?? []).filter((e) => e.quantity > 0);
}

/**
 * Select mode: the picked item ids, kept to what is still held (a sale elsewhere drops them), and the
 * selection the grid shows while it is on.
 */
export function useInventorySelection() {
  const held = useHeld();
  const [selecting, setSelecting] = useState(false);
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const entries = held.filter((e) => picked.has(e.item.id));
  const selection: InventorySelection | undefined = selecting
    ? {
        selected: new Set(entries.map((e) => e.item.id)),
        toggle: (itemId) =>
          setPicked((current) => {
            const next = new Set(current);
            if (!next.delete(itemId)) next.add(itemId);
            return next;
          }),
      }
    : undefined;
  return {
    selecting,
    selection,
    entries,
    start: () => {
      setPicked(new Set());
      setSelecting(true);
    },
    stop: () => {
      setSelecting(false);
      setPicked(new Set());
    },
    all: () => setPicked(new Set(held.map((e) => e.item.id))),
    held,
  };
}

type Selection = ReturnType<typeof useInventorySelection>;

interface InventoryToolbarProps {
  sort: InventorySort;
  onSort: (sort: InventorySort) => void;
  select: Selection;
  actions: Actions;
}

/** What everything held is worth, the order (price, rarity, newest) and the way into select mode. */
export function InventoryToolbar({ sort, onSort, select, actions }: InventoryToolbarProps) {
  const { t } = useTranslation();
  const { held } = select;
  if (held.length === 0) return null;
  return (
    <div className="inventory-tools" data-testid="inventory-tools">
      <p className="inventory-tools__worth" data-testid="inventory-worth">
        {t('inventory.tools.worth')}
        <span className="inventory-tools__worth-value">
          <TonIcon size={14} />
          {formatTon(worthOf(held), 2)}
        </span>
      </p>
      <div className="inventory-tools__row">
        <div className="inventory-tools__sorts" role="group" aria-label={t('inventory.tools.sortLabel')}>
          {INVENTORY_SORTS.map((option) => (
            <button
              key={option}
              type="button"
              className="inventory-tools__sort"
              aria-pressed={sort === option}
              onClick={() => onSort(option)}
              data-testid={`inventory-sort-${option}`}
            >
              {t(`inventory.tools.sort.${option}`)}
            </button>
          ))}
        </div>
        {select.selecting ? (
          <button
            type="button"
            className="inventory-tools__select"
            onClick={select.stop}
            data-testid="inventory-select-cancel"
          >
            {t('common.cancel')}
          </button>
        ) : (
          <button
            type="button"
            className="inventory-tools__select"
            disabled={actions.pending}
            onClick={select.start}
            data-testid="inventory-select"
          >
            {t('inventory.tools.select')}
          </button>
        )}
      </div>
    </div>
  );
}

/**
 * Select mode's bar above the tab bar: how many items are picked and what they bring, and one Sell that
 * asks first with the exact total, then sells them all in one request (one idempotency key).
 */
export function SelectionBar({ select, actions }: { select: Selection; actions: Actions }) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  if (!select.selecting) return null;
  const { entries } = select;
  const count = entries.reduce((sum, e) => sum + e.quantity, 0);
  const total = formatTon(worthOf(entries), 2);
  const allPicked = entries.length === select.held.length;
  // the dialog stands beside the bar, not in it: the sticky bar is a stacking context under the tab bar
  return (
    <>
      <div className="inventory-selection" data-testid="inventory-selection">
        <div className="inventory-selection__summary">
          <span data-testid="inventory-selection-count">{t('inventory.tools.selected', { count })}</span>
          <span className="inventory-selection__total" data-testid="inventory-selection-total">
            <TonIcon size={14} />
            {total}
          </span>
        </div>
        <div className="inventory-selection__actions">
          <button
            type="button"
            className="button button--ghost"
            disabled={allPicked || actions.pending}
            onClick={select.all}
            data-testid="inventory-select-all"
          >
            {t('inventory.tools.selectAll')}
          </button>
          <button
            type="button"
            className="button"
            disabled={count === 0 || actions.pending}
            aria-haspopup="dialog"
            onClick={() => setAsking(true)}
            data-testid="inventory-sell-selected"
          >
            {t('inventory.tools.sellSelected')}
          </button>
        </div>
      </div>
      {asking && count > 0 && (
        <ConfirmDialog
          testId="sell-selected-dialog"
          title={t('inventory.tools.sellSelectedTitle')}
          confirmLabel={t('inventory.sellAllConfirm', { total })}
          cancelLabel={t('common.cancel')}
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            actions.sellItems(
              entries.map((e) => ({ itemId: e.item.id, quantity: e.quantity })),
              select.stop,
            );
          }}
        >
          <p className="inventory-sell-all__text" data-testid="sell-selected-total">
            {t('inventory.sellAllText', { count, total })}
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
