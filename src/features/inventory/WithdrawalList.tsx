import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import type { Withdrawal, WithdrawalFailure } from '../../../contract/inventory.ts';
import { ArtImage } from '../../lib/ui/ArtImage';
import { QueryState } from '../../lib/ui/QueryState';
import { useCatalogueTexts } from '../../state/catalogue-texts';
import { withdrawalsAtom } from '../../state/inventory';
import './inventory.css';

type Step = { key: 'requested' | 'sending' | 'delivered' | 'failed'; at: string | null; done: boolean };

/** A withdrawal's timeline: requested → sending → delivered or failed, each with its time once reached. */
function timeline(w: Withdrawal): Step[] {
  const sent = w.sendingAt !== null || w.status === 'completed';
  return [
    { key: 'requested', at: w.createdAt, done: true },
    ...(w.status === 'failed' && w.sendingAt === null
      ? []
      : [{ key: 'sending' as const, at: w.sendingAt, done: sent }]),
    w.status === 'failed'
      ? { key: 'failed', at: w.resolvedAt, done: true }
      : {
          key: 'delivered',
          at: w.status === 'completed' ? w.resolvedAt : null,
          done: w.status === 'completed',
        },
  ];
}

type FailureCode = WithdrawalFailure | 'OPERATOR';

/** The reasons the app explains (the server's WITHDRAWAL_FAILURES); any other is shown as the operator's. */
const FAILURES: readonly WithdrawalFailure[] = [
  'BOT_NOT_STARTED',
  'BOT_BLOCKED',
  'GIFT_SOLD_OUT',
  'NOT_ENOUGH_STARS',
  'OUT_OF_STOCK',
  'NOT_WITHDRAWABLE',
  'REFUSED',
];

/** Why a failed withdrawal failed (an operator's refusal has no code). */
function failureCode(reason: string | null): FailureCode {
  return (FAILURES as readonly string[]).includes(reason ?? '') ? (reason as FailureCode) : 'OPERATOR';
}

/**
 * The player's withdrawals, newest first, each with its status and its timeline (requested, sending,
 * delivered or failed, with times); a failed one says why and that the item came back. While one is on its
 * way the list refreshes itself (withdrawalsAtom), so the player watches it land.
 */
export function WithdrawalList() {
  const { t, i18n } = useTranslation();
  const { itemName } = useCatalogueTexts();
  const query = useAtomValue(withdrawalsAtom);
  const dateFormat = new Intl.DateTimeFormat(i18n.resolvedLanguage, {
    dateStyle: 'short',
    timeStyle: 'short',
  });
  const timeFormat = new Intl.DateTimeFormat(i18n.resolvedLanguage, { timeStyle: 'medium' });

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
                <div className="withdrawal__row">
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
                    {t(`telegram.status.${w.status}`)}
                  </span>
                </div>
                <ol className="withdrawal__timeline" aria-label={t('telegram.timeline.label')}>
                  {timeline(w).map((step) => (
                    <li
                      key={step.key}
                      className={`withdrawal__step withdrawal__step--${step.key}`}
                      data-done={step.done}
                      data-testid={`withdrawal-step-${step.key}`}
                    >
                      <span className="withdrawal__dot" aria-hidden="true" />
                      <span className="withdrawal__step-name">{t(`telegram.timeline.${step.key}`)}</span>
                      {step.at && (
                        <time className="withdrawal__step-time" dateTime={step.at}>
                          {timeFormat.format(new Date(step.at))}
                        </time>
                      )}
                    </li>
                  ))}
                </ol>
                {w.status === 'failed' && (
                  <p className="withdrawal__reason" data-testid="withdrawal-reason">
                    {t(`telegram.failure.${failureCode(w.failureReason)}`)}.{' '}
                    {t('telegram.timeline.itemsBack')}
                  </p>
                )}
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}
