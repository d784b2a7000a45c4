import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OpenResult } from '../../../contract/cases.ts';
import { useCatalogueTexts } from '../../state/catalogue-texts';
import { apiErrorText } from '../../lib/api-error';
import { sumTon } from '../../../contract/money.ts';
import { formatTon } from '../../lib/format';
import { ArtImage } from '../../lib/ui/ArtImage';
import { TonIcon } from '../../lib/ui/TonIcon';
import { runMoneyAction } from '../../lib/money-action';
import { shieldTaps } from '../../lib/ui/tap-shield';
import { sellInventoryItem } from '../../state/inventory';

type SaleState =
  { status: 'idle' } | { status: 'pending' } | { status: 'sold' } | { status: 'failed'; message: string };

interface WinScreenProps {
  results: readonly OpenResult[];
  /** fading out after 'Keep it' */
  closing: boolean;
  onKeep: () => void;
}

/** The won items (price with at least 1 decimal, spec §9, and every significant one: the Sell button offers exactly what a sale credits), each sellable, and 'Keep it' to close (spec §2, §4). */
export function WinScreen({ results, closing, onKeep }: WinScreenProps) {
  const { t } = useTranslation();
  const { itemName } = useCatalogueTexts();
  const [sales, setSales] = useState<Record<string, SaleState>>({});
  const keepRef = useRef<HTMLButtonElement>(null);
  const total = sumTon(results.map((r) => r.item.price));
  const allSold = results.length > 0 && results.every((r) => sales[r.openingId]?.status === 'sold');

  useEffect(() => keepRef.current?.focus(), []);

  // everything sold: nothing left to keep
  useEffect(() => {
    if (allSold) onKeep();
  }, [allSold, onKeep]);

  // one sale per won copy: guarded at the tap (a second tap before the button renders disabled does
  // nothing), with the copy's own Idempotency-Key, and never while the screen fades out
  const closingNow = useRef(false);
  async function sell(result: OpenResult) {
    if (closingNow.current || closing) return;
    const sale = runMoneyAction('inventory', `win:sell:${result.openingId}`, (key) =>
      sellInventoryItem(result.item.id, 1, key),
    );
    if (!sale) return;
    setSales((s) => ({ ...s, [result.openingId]: { status: 'pending' } }));
    try {
      await sale;
      setSales((s) => ({ ...s, [result.openingId]: { status: 'sold' } }));
    } catch (error) {
      const message = apiErrorText(error, t('case.win.sellError'));
      setSales((s) => ({ ...s, [result.openingId]: { status: 'failed', message } }));
    }
  }

  const many = results.length > 1;
  return (
    <div className="win" data-closing={closing || undefined} data-testid="win-screen">
      <div className="win__backdrop" aria-hidden="true" />
      <div
        className="win__panel"
        role="dialog"
        aria-modal="true"
        aria-labelledby="win-title"
        data-count={results.length}
      >
        <span className="win__rays" aria-hidden="true" />
        <h2 id="win-title" className="win__title">
          {many ? t('case.win.titleMany', { count: results.length }) : t('case.win.title')}
        </h2>
        <ul className="win__items">
          {results.map((result, index) => {
            const sale = sales[result.openingId] ?? { status: 'idle' };
            return (
              <li
                key={result.openingId}
                className="win-item"
                data-rarity={result.item.rarity}
                data-sold={sale.status === 'sold' || undefined}
                data-testid="win-item"
                data-item-id={result.item.id}
                style={{ animationDelay: `${index * 90}ms` }}
              >
                <span className="win-item__art">
                  <ArtImage src={result.item.imageUrl} />
                </span>
                <span className="win-item__name">{itemName(result.item)}</span>
                <span className="win-item__price" data-testid="win-item-price">
                  <TonIcon size={14} />
                  {formatTon(result.item.price, 1)}
                </span>
                {sale.status === 'sold' ? (
                  <span className="win-item__sold">{t('case.win.sold')}</span>
                ) : (
                  <button
                    type="button"
                    className="win-item__sell"
                    data-testid="sell-button"
                    disabled={sale.status === 'pending' || closing}
                    onClick={() => void sell(result)}
                  >
                    {sale.status === 'pending'
                      ? t('case.win.selling')
                      : many
                        ? t('case.win.sell')
                        : t('case.win.sellFor', { price: formatTon(result.item.price, 1) })}
                  </button>
                )}
                {sale.status === 'failed' && (
                  <span className="win-item__error" role="alert" data-testid="sell-error">
                    {sale.message}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
        {many && (
          <p className="win__total">
            {t('case.win.total')}
            <span className="win__total-value">
              <TonIcon size={16} />
              {formatTon(total, 1)}
            </span>
          </p>
        )}
        <button
          ref={keepRef}
          type="button"
          className="button win__keep"
          data-testid="keep-button"
          disabled={closing}
          onClick={() => {
            if (closingNow.current) return;
            closingNow.current = true;
            // the taps aimed at the fading screen land on nothing beneath it
            shieldTaps();
            onKeep();
          }}
        >
          {t('case.win.keep')}
        </button>
      </div>
    </div>
  );
}
