import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { BattleIcon, CasesIcon, ProfileIcon, RaceIcon, UpgradeIcon, WheelIcon } from './icons';

type TabLabel = 'nav.upgrade' | 'nav.wheel' | 'nav.cases' | 'nav.race' | 'nav.battle' | 'nav.profile';

interface Tab {
  id: string;
  to: string;
  label: TabLabel;
  Icon: ComponentType<{ size?: number }>;
}

/** The six tabs, in the spec's order. */
const TABS: readonly Tab[] = [
  { id: 'upgrade', to: '/upgrade', label: 'nav.upgrade', Icon: UpgradeIcon },
  { id: 'wheel', to: '/wheel', label: 'nav.wheel', Icon: WheelIcon },
  { id: 'cases', to: '/', label: 'nav.cases', Icon: CasesIcon },
  { id: 'race', to: '/race', label: 'nav.race', Icon: RaceIcon },
  { id: 'battle', to: '/battle', label: 'nav.battle', Icon: BattleIcon },
  { id: 'profile', to: '/profile', label: 'nav.profile', Icon: ProfileIcon },
];

/** Width of one tab and the indicator's inset, in px: the indicator sits at 4 + 62 × index. */
const TAB_WIDTH = 62;
const INDICATOR_INSET = 4;

/** Index of the tab for a path (Cases also for any /case/...), or -1 when no tab matches. */
function activeTabIndex(pathname: string): number {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/' || path.startsWith('/case/')) return TABS.findIndex((tab) => tab.id === 'cases');
  return TABS.findIndex((tab) => tab.to !== '/' && (path === tab.to || path.startsWith(`${tab.to}/`)));
}

export function TabBar() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const active = activeTabIndex(pathname);

  return (
    <nav className="tabbar" aria-label={t('nav.label')}>
      <div className="tabbar__track">
        <span
          className="tabbar__indicator"
          data-testid="tab-indicator"
          data-hidden={active < 0 || undefined}
          style={{ transform: `translateX(${INDICATOR_INSET + TAB_WIDTH * Math.max(active, 0)}px)` }}
          aria-hidden="true"
        />
        {TABS.map(({ id, to, label, Icon }, index) => {
          const isActive = index === active;
          return (
            <Link
              key={id}
              to={to}
              className="tabbar__tab"
              data-testid={`tab-${id}`}
              data-active={isActive || undefined}
              aria-current={isActive ? 'page' : undefined}
              aria-label={t(label)}
            >
              <Icon size={22} />
              {isActive && <span className="tabbar__label">{t(label)}</span>}
            </Link>
          );
        })}
      </div>
    </nav>
  );
}
