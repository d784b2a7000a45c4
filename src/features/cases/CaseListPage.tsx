import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Case } from '../../../contract/cases.ts';
import { formatTon } from '../../lib/format';
import { ArtImage } from '../../lib/ui/ArtImage';
import { TonIcon } from '../../lib/ui/TonIcon';
import { casesAtom } from '../../state/queries';
import './cases.css';

const SKELETON_COUNT = 6;

function CaseCardBody({ item }: { item: Case }) {
  return (
    <>
      <span className="case-card__art">
        <ArtImage src={item.imageUrl} />
      </span>
      <span className="case-card__name">{item.name}</span>
      <span className="case-card__price">
        <TonIcon size={14} />
        {formatTon(item.price, 2)}
      </span>
    </>
  );
}

/** The first screen: the case catalogue. */
export function CaseListPage() {
  const { t } = useTranslation();
  const { data: cases, isPending, isFetching, refetch } = useAtomValue(casesAtom);

  return (
    <section className="screen" aria-labelledby="cases-title">
      <h1 id="cases-title" className="screen__title">
        {t('cases.title')}
      </h1>

      {isPending ? (
        <div className="case-grid" aria-busy="true">
          {Array.from({ length: SKELETON_COUNT }, (_, i) => (
            <div key={i} className="case-card case-card--skeleton skeleton" data-testid="case-skeleton" />
          ))}
        </div>
      ) : cases && cases.length > 0 ? (
        <ul className="case-grid" data-testid="case-list">
          {cases.map((item) => (
            <li key={item.id}>
              {item.isLocked ? (
                <div className="case-card case-card--locked" aria-disabled="true" title={t('cases.locked')}>
                  <CaseCardBody item={item} />
                  <span className="case-card__lock">{t('cases.locked')}</span>
                </div>
              ) : (
                <Link to={`/case/${encodeURIComponent(item.id)}`} className="case-card">
                  <CaseCardBody item={item} />
                </Link>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <div className="cases-empty" data-testid="cases-empty">
          <h2 className="cases-empty__title">{t('cases.emptyTitle')}</h2>
          <p className="cases-empty__text">{t('cases.emptyText')}</p>
          <button type="button" className="button" disabled={isFetching} onClick={() => void refetch()}>
            {t('cases.refresh')}
          </button>
        </div>
      )}
    </section>
  );
}
