import { useAtom, useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Case } from '../../../contract/cases.ts';
import { formatTon } from '../../lib/format';
import { hapticSelection } from '../../lib/haptics';
import { preloadScenes } from '../../lib/scene/runtime';
import { ArtImage } from '../../lib/ui/ArtImage';
import { QueryState } from '../../lib/ui/QueryState';
import { TonIcon } from '../../lib/ui/TonIcon';
import { useCatalogueTexts } from '../../state/catalogue-texts';
import { casesAtom } from '../../state/queries';
import { DropFeed } from '../feed/DropFeed';
import { CASE_TABS, caseTabAtom, casesOfTab } from './tabs';
import './cases.css';

const SKELETON_COUNT = 6;

/** Cards whose pictures are on screen at once (two rows of two): loaded eagerly, the page preloads them. */
const FIRST_SCREEN_CARDS = 4;

function CaseCardBody({ item, priority }: { item: Case; priority: boolean }) {
  const { caseName } = useCatalogueTexts();
  return (
    <>
      <span className="case-card__art">
        <ArtImage src={item.imageUrl} priority={priority} />
      </span>
      <span className="case-card__name">{caseName(item)}</span>
      <span className="case-card__price">
        <TonIcon size={14} />
        {formatTon(item.price, 2)}
      </span>
    </>
  );
}

function CaseCard({ item, priority }: { item: Case; priority: boolean }) {
  const { t } = useTranslation();
  // A locked case cannot be entered (spec §5); an inactive one cannot be opened right now.
  const blocked = item.isLocked ? t('cases.locked') : !item.isActive ? t('cases.unavailable') : null;
  if (blocked) {
    return (
      <div
        className="case-card case-card--locked"
        aria-disabled="true"
        data-testid="case-card"
        data-case-id={item.id}
        data-locked={item.isLocked || undefined}
      >
        <CaseCardBody item={item} priority={priority} />
        <span className="case-card__lock" data-testid="case-locked">
          {item.isLocked && <LockIcon />}
          {blocked}
        </span>
      </div>
    );
  }
  return (
    <Link
      to={`/case/${encodeURIComponent(item.id)}`}
      className="case-card"
      data-testid="case-card"
      data-case-id={item.id}
      // the scene runtime (its worker loads Pixi and the scenes) starts as soon as a card is touched
      onPointerDown={preloadScenes}
    >
      <CaseCardBody item={item} priority={priority} />
    </Link>
  );
}

function LockIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 24 24" fill="none" aria-hidden="true" focusable="false">
      <rect x="5" y="10.5" width="14" height="10" rx="2.5" fill="currentColor" />
      <path d="M8 10.5V8a4 4 0 0 1 8 0v2.5" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
    </svg>
  );
}

function PromoBanner() {
  const { t } = useTranslation();
  const code = t('cases.promo.code');
  // the code it advertises is real: the banner opens the deposit sheet with it entered
  return (
    <Link
      to={`/profile?openDeposit=true&promo=${encodeURIComponent(code)}`}
      className="promo"
      data-testid="promo-banner"
      aria-label={`${t('cases.promo.label')} ${code}: ${t('retention.promo.banner')}`}
    >
      <span className="promo__glow" aria-hidden="true" />
      <div className="promo__text">
        <span className="promo__label">{t('cases.promo.label')}</span>
        <span className="promo__code">{code}</span>
        <span className="promo__hint">{t('cases.promo.text')}</span>
      </div>
      <span className="promo__bonus">{t('cases.promo.bonus')}</span>
    </Link>
  );
}

/** The first screen: the case catalogue, in five tabs that each show a slice of it. */
export function CaseListPage() {
  const { t } = useTranslation();
  const query = useAtomValue(casesAtom);
  const [tab, setTab] = useAtom(caseTabAtom);

  return (
    <section className="screen" aria-labelledby="cases-title">
      <h1 id="cases-title" className="screen__title">
        {t('cases.title')}
      </h1>

      <PromoBanner />
      <DropFeed />

      <div className="case-tabs" role="tablist" aria-label={t('cases.tabsLabel')}>
        {CASE_TABS.map((id) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`case-tab-${id}`}
            className="case-tabs__tab"
            aria-selected={tab === id}
            aria-controls="case-tabpanel"
            data-testid={`case-tab-${id}`}
            onClick={(event) => {
              event.currentTarget.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'smooth' });
              if (id === tab) return;
              hapticSelection();
              setTab(id);
            }}
          >
            {t(`cases.tabs.${id}`)}
          </button>
        ))}
      </div>

      <div id="case-tabpanel" role="tabpanel" aria-labelledby={`case-tab-${tab}`}>
        <QueryState
          query={query}
          testId="cases"
          errorTitle={t('cases.loadError')}
          loading={
            <div className="case-grid" aria-busy="true" data-testid="cases-loading">
              {Array.from({ length: SKELETON_COUNT }, (_, i) => (
                <div key={i} className="case-card case-card--skeleton skeleton" data-testid="case-skeleton" />
              ))}
            </div>
          }
          isEmpty={(cases) => casesOfTab(cases, tab).length === 0}
          empty={
            <div className="cases-empty">
              <h2 className="cases-empty__title">{t('cases.emptyTitle')}</h2>
              <p className="cases-empty__text">{t('cases.emptyText')}</p>
              <button
                type="button"
                className="button"
                disabled={query.isFetching}
                onClick={() => void query.refetch()}
              >
                {t('cases.refresh')}
              </button>
            </div>
          }
        >
          {(cases) => (
            <ul className="case-grid" data-testid="case-list" key={tab}>
              {casesOfTab(cases, tab).map((item, index) => (
                <li key={item.id} className="case-grid__cell" style={{ animationDelay: `${index * 40}ms` }}>
                  <CaseCard item={item} priority={index < FIRST_SCREEN_CARDS} />
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </div>
    </section>
  );
}
