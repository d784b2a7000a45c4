import { useEffect, useMemo, useRef, useState } from 'react';
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
import { sellInventoryItem, sellInventoryItems } from '../../state/inventory';
import { playWinSound } from '../../lib/sound';
import { usePrefersReducedMotion } from '../../lib/scene-hooks';
import { badgeMultiplier, revealTier } from './reveal';
import { MultiplierBadge, WinReveal } from './WinReveal';

type SaleState =
  { status: 'idle' } | { status: 'pending' } | { status: 'sold' } | { status: 'failed'; message: string };

interface WinScreenProps {
  results: readonly OpenResult[];
  /** what one opening cost (the case's price): the reveal's tier and each item's multiplier are against it */
  paid: string;
  /** fading out after 'Keep it' */
  closing: boolean;
  onKeep: () => void;
  /** opens the case again, as many copies the same way; absent where that is not offered */
  onOpenAgain?: () => void;
}

/** The panel's entrance, ms (case.css win-in): Sell all and Open again take taps after it. */
const ENTRANCE_MS = 420;

/**
 * The won items (price with at least 1 decimal, spec §9, and every significant one: the Sell button offers
 * exactly what a sale credits), each sellable, Sell all, Open again and 'Keep it' to close (spec §2, §4).
 * The reveal behind them (glow, rays, ring, sparks) and the win sound step up with the best win's tier:
 * its rarity or its value against the price, whichever is higher; under reduced motion it is skipped.
 */
export function WinScreen({ results, paid, closing, onKeep, onOpenAgain }: WinScreenProps) {
  const { t } = useTranslation();
  const { itemName } = useCatalogueTexts();
  const reducedMotion = usePrefersReducedMotion();
  const [sales, setSales] = useState<Record<string, SaleState>>({});
  const keepRef = useRef<HTMLButtonElement>(null);
  // taps within the entrance were aimed at what stood here before (the last win screen's Open again)
  const shownAt = useRef(Infinity);
  useEffect(() => {
    shownAt.current = performance.now();
  }, []);
  const settledIn = (event: { timeStamp: number }) => event.timeStamp - shownAt.current >= ENTRANCE_MS;
  const unsold = results.filter((r) => sales[r.openingId]?.status !== 'sold');
  // what is still the player's: the total follows every sale
  const total = sumTon(unsold.map((r) => r.item.price));
  const allSold = results.length > 0 && unsold.length === 0;
  const pendingAny = results.some((r) => sales[r.openingId]?.status === 'pending');
  const best = useMemo(
    () =>
      results.reduce(
        (top, r) => {
          const tier = revealTier(r.item.rarity, r.item.price, paid);
          return tier > top.tier ? { tier, result: r } : top;
        },
        { tier: 0 as ReturnType<typeof revealTier>, result: results[0] },
      ),
    [results, paid],
  );

  useEffect(() => keepRef.current?.focus(), []);
  // the win sound once, as loud as the win is big
  useEffect(() => playWinSound(best.tier), [best.tier]);

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

  /** Sells every unsold win in one request (one idempotency key): as many of each item as were won. */
  async function sellAll() {
    if (closingNow.current || closing || unsold.length === 0) return;
    const lines = new Map<string, number>();
    for (const r of unsold) lines.set(r.item.id, (lines.get(r.item.id) ?? 0) + 1);
    const items = [...lines].map(([itemId, quantity]) => ({ itemId, quantity }));
    const sale = runMoneyAction(
      'inventory',
      `win:sellAll:${unsold.map((r) => r.openingId).join(',')}`,
      (key) => sellInventoryItems(items, key),
    );
    if (!sale) return;
    const mark = (state: SaleState) =>
      setSales((s) => ({ ...s, ...Object.fromEntries(unsold.map((r) => [r.openingId, state])) }));
    mark({ status: 'pending' });
    try {
      await sale;
      mark({ status: 'sold' });
    } catch (error) {
      mark({ status: 'failed', message: apiErrorText(error, t('case.win.sellError')) });
    }
  }

  const many = results.length > 1;
  return (
    <div
      className="win"
      data-closing={closing || undefined}
      data-testid="win-screen"
      data-reveal-tier={best.tier}
    >
      <div className="win__backdrop" aria-hidden="true" />
      {!reducedMotion && best.tier > 0 && best.result && (
        <WinReveal tier={best.tier} rarity={best.result.item.rarity} seed={best.result.openingId} />
      )}
      <div
        className="win__panel"
        role="dialog"
        aria-modal="true"
        aria-labelledby="win-title"
        data-count={results.length}
        data-tier={best.tier}
      >
        <span className="win__rays" aria-hidden="true" />
        <h2 id="win-title" className="win__title">
          {many ? t('case.win.titleMany', { count: results.length }) : t('case.win.title')}
        </h2>
        <ul className="win__items">
          {results.map((result, index) => {
            const sale = sales[result.openingId] ?? { status: 'idle' };
            const multiplier = badgeMultiplier(result.item.price, paid);
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
                {multiplier !== null && <MultiplierBadge multiplier={multiplier} testId="win-multiplier" />}
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
                    disabled={pendingAny || closing}
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
            <span className="win__total-value" data-testid="win-total">
              <TonIcon size={16} />
              {formatTon(total, 1)}
            </span>
          </p>
        )}
        {(many || onOpenAgain) && (
          <div className="win__more">
            {many && (
              <button
                type="button"
                className="button button--ghost"
                data-testid="win-sell-all"
                disabled={pendingAny || closing || unsold.length === 0}
                onClick={(event) => {
                  if (settledIn(event)) void sellAll();
                }}
              >
                {t('case.win.sellAll', { total: formatTon(total, 1) })}
              </button>
            )}
            {onOpenAgain && (
              <button
                type="button"
                className="button button--ghost"
                data-testid="win-open-again"
                disabled={pendingAny || closing}
                onClick={(event) => {
                  if (settledIn(event)) onOpenAgain();
                }}
              >
                {t('case.win.openAgain')}
              </button>
            )}
          </div>
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
