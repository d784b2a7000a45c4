import { useAtomValue } from 'jotai';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { DropEvent } from '../../../contract/feed.ts';
import { ArtImage } from '../../lib/ui/ArtImage';
import { useCatalogueTexts, type CatalogueTexts } from '../../state/catalogue-texts';
import { dropKey, shownDropsAtom } from '../../state/feed';
import { liveStatusAtom } from '../../state/live';
import './feed.css';

/**
 * One drop. Memoized: a new drop renders one new card, the others stay as they are. The texts come from the
 * strip (the same object until the language or the catalogue changes), so the up to 30 cards on screen do
 * not each subscribe to the language and the catalogue.
 */
const DropCard = memo(function DropCard({
  drop,
  texts: { itemName, caseName },
}: {
  drop: DropEvent;
  texts: CatalogueTexts;
}) {
  return (
    <li className="drop-card" data-testid="drop-card" data-drop-id={drop.id}>
      <Link
        to={`/proof/${drop.betId}`}
        className="drop-card__link"
        data-testid="drop-card-link"
        title={`${drop.user.username}: ${itemName(drop.item)} (${caseName(drop.case)})`}
      >
        <span className="drop-card__art">
          <ArtImage src={drop.item.imageUrl} />
        </span>
        <span className="drop-card__case" aria-hidden="true">
          <ArtImage src={drop.case.imageUrl} />
        </span>
        <span className="drop-card__name">{itemName(drop.item)}</span>
        <span className="drop-card__user">{drop.user.username}</span>
      </Link>
    </li>
  );
});

/** The strip itself (loaded lazily by DropFeed). Reads only the feed atoms. */
export function DropStrip() {
  const { t } = useTranslation();
  const drops = useAtomValue(shownDropsAtom);
  const status = useAtomValue(liveStatusAtom);
  const texts = useCatalogueTexts();
  return (
    <section className="drop-feed" aria-label={t('feed.title')} data-testid="drop-feed" data-status={status}>
      <span className="drop-feed__live">
        <span className="drop-feed__dot" aria-hidden="true" />
        {t('feed.live')}
      </span>
      {drops.length > 0 ? (
        <ol className="drop-feed__list">
          {drops.map((drop) => (
            <DropCard key={dropKey(drop)} drop={drop} texts={texts} />
          ))}
        </ol>
      ) : (
        <p className="drop-feed__empty">{t('feed.empty')}</p>
      )}
    </section>
  );
}
