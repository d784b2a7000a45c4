import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import type { WithdrawalStatus } from '../../../contract/inventory.ts';
import { ArtImage } from '../../lib/ui/ArtImage';
import { QueryState } from '../../lib/ui/QueryState';
import { useCatalogueTexts } from '../../state/catalogue-texts';
import { withdrawalsAtom } from '../../state/inventory';
import './inventory.css';

const STATUS_KEYS = {
  pending: 'inventory.withdrawals.pending',
  completed: 'inventory.withdrawals.completed',
  failed: 'inventory.withdrawals.failed',
} as const satisfies Record<WithdrawalStatus, string>;

/** The player's withdrawal requests with their status (pending, completed, failed), newest first. */
export function WithdrawalList() {
  const { t, i18n } = useTranslation();
  const { itemName } = useCatalogueTexts();
  const query = useAtomValue(withdrawalsAtom);
  const dateFormat = new Intl.DateTimeFormat(i18n.resolvedLanguage, {
    dateStyle: 'short',
    timeStyle: 'short',
  });

  return (
    <section className="withdrawals" aria-labelledby="withdrawals-title" data-testid="withdrawals">
      <h2 id="withdrawals-title" className="section-title">
        {t('inventory.withdrawals.title')}
      </h2>
      <QueryState
        query={query}
        testId="withdrawals"
        compact
        errorTitle={t('inventory.withdrawals.loadError')}
        isEmpty={(list) => list.length === 0}
        empty={
          <p className="inventory-state" data-testid="withdrawals-empty">
            {t('inventory.withdrawals.empty')}
          </p>
        }
      >
        {(data) => (
          <ul className="withdrawals__list">
            {data.map((w) => (
              <li
                key={w.id}
                className="withdrawal"
                data-testid="withdrawal"
                data-item-id={w.item.id}
                data-status={w.status}
              >
                <div className="withdrawal__art">
                  <ArtImage src={w.item.imageUrl} className="inventory-card__img" />
                </div>
                <div className="withdrawal__text">
                  <span className="withdrawal__name">
                    {itemName(w.item)} × {w.quantity}
                  </span>
                  <span className="withdrawal__date">{dateFormat.format(new Date(w.createdAt))}</span>
                </div>
                <span
                  className={`withdrawal__status withdrawal__status--${w.status}`}
                  data-testid="withdrawal-status"
                >
                  {t(STATUS_KEYS[w.status])}
                </span>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}
