import { useTranslation } from 'react-i18next';
import { InventoryActionError, InventoryGrid, SellAllButton } from './InventoryGrid';
import { InventoryToolbar, SelectionBar, useInventorySelection, useInventorySort } from './InventoryTools';
import { useInventoryActions } from './useInventoryActions';
import { WithdrawalList } from './WithdrawalList';
import './inventory.css';

/**
 * The inventory (spec §2): heading, Sell all, what it is worth, its order and select mode, the two-column
 * grid; the withdrawal requests below.
 */
export function InventoryPage() {
  const { t } = useTranslation();
  const actions = useInventoryActions();
  const [sort, setSort] = useInventorySort();
  const select = useInventorySelection();
  return (
    <section className="screen" data-testid="inventory-page" aria-labelledby="inventory-title">
      <div className="inventory-head">
        <h1 id="inventory-title" className="screen__title">
          {t('inventory.title')}
        </h1>
        {!select.selecting && <SellAllButton actions={actions} />}
      </div>
      <InventoryToolbar sort={sort} onSort={setSort} select={select} actions={actions} />
      <InventoryActionError actions={actions} />
      <InventoryGrid actions={actions} sort={sort} selection={select.selection} />
      <SelectionBar select={select} actions={actions} />
      {!select.selecting && <WithdrawalList />}
    </section>
  );
}
