import { useTranslation } from 'react-i18next';
import { InventoryActionError, InventoryGrid, SellAllButton } from './InventoryGrid';
import { useInventoryActions } from './useInventoryActions';
import { WithdrawalList } from './WithdrawalList';
import './inventory.css';

/** The inventory (spec §2): heading, Sell all, the two-column grid; the withdrawal requests below. */
export function InventoryPage() {
  const { t } = useTranslation();
  const actions = useInventoryActions();
  return (
    <section className="screen" data-testid="inventory-page" aria-labelledby="inventory-title">
      <div className="inventory-head">
        <h1 id="inventory-title" className="screen__title">
          {t('inventory.title')}
        </h1>
        <SellAllButton actions={actions} />
      </div>
      <InventoryActionError actions={actions} />
      <InventoryGrid actions={actions} />
      <WithdrawalList />
    </section>
  );
}
