import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CaseItem } from '../../../contract/cases.ts';
import { formatTon } from '../../lib/format';
import { ArtImage } from '../../lib/ui/ArtImage';
import { TonIcon } from '../../lib/ui/TonIcon';
import { useCatalogueTexts } from '../../state/catalogue-texts';
import { expectedValue, formatChance, sortForDisplay } from './model';

/**
 * What the case holds, with every item's drop chance (odds disclosure before paying) and the case's
 * expected value.
 */
export function CaseItems({ items }: { items: readonly CaseItem[] }) {
  const { t } = useTranslation();
  const { itemName } = useCatalogueTexts();
  const sorted = useMemo(() => sortForDisplay(items), [items]);
  const ev = useMemo(() => expectedValue(items), [items]);

  return (
    <section className="case-contents" aria-labelledby="case-contents-title">
      <div className="case-contents__head">
        <h2 id="case-contents-title" className="case-contents__title">
          {t('case.contents')}
        </h2>
        {items.length > 0 && (
          <span className="case-contents__ev" title={t('case.expectedValueHint')} data-testid="case-ev">
            {t('case.expectedValue')}
            <strong>
              <TonIcon size={13} />
              {formatTon(ev, 2, 2)}
            </strong>
          </span>
        )}
      </div>

      {items.length === 0 ? (
        <p className="case-contents__loading" data-testid="case-items-loading">
          {t('case.itemsLoading')}
        </p>
      ) : (
        <>
          <ul className="case-items" data-testid="case-items">
            {sorted.map((entry) => (
              <li
                key={entry.id}
                className="case-item"
                data-rarity={entry.item.rarity}
                data-testid="case-item"
                data-item-id={entry.item.id}
              >
                <span className="case-item__chance" data-testid="case-item-chance">
                  <span className="visually-hidden">{t('case.chance')} </span>
                  {formatChance(entry.dropChance)}
                </span>
                <span className="case-item__art">
                  <ArtImage src={entry.item.imageUrl} />
                </span>
                <span className="case-item__name">{itemName(entry.item)}</span>
                <span className="case-item__price">
                  <TonIcon size={12} />
                  {formatTon(entry.item.price, 1)}
                </span>
              </li>
            ))}
          </ul>
          <p className="case-contents__note">{t('case.oddsNote')}</p>
        </>
      )}
    </section>
  );
}
