import { Suspense, useCallback, useEffect, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { showTelegramBackButton, usesTelegramBackButton } from '../../lib/telegram';
import { ScreenLoading } from '../../lib/ui/QueryState';
import { ErrorBoundary } from '../ErrorBoundary';
import { Header } from './Header';
import { TabBar } from './TabBar';
import './layout.css';

/** Screens reached from another screen rather than from the tab bar. */
const BACK_PATHS = ['/inventory', '/fairness', '/proof'];

/**
 * Paths with a back button: Telegram's own inside Telegram, the header's elsewhere. A case page, the
 * inventory, the fairness page and a bet's proof.
 */
function hasBackButton(pathname: string): boolean {
  return (
    pathname.startsWith('/case/') ||
    BACK_PATHS.some((path) => pathname === path || pathname.startsWith(`${path}/`))
  );
}

export function RootLayout() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const showBack = hasBackButton(pathname);

  const goBack = useCallback(() => {
    // Opened straight on a case page there is nothing to go back to: go to the case list.
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) void navigate(-1);
    else void navigate('/', { replace: true });
  }, [navigate]);

  useEffect(() => showTelegramBackButton(showBack, goBack), [showBack, goBack]);
  // inside Telegram its BackButton is the back button; the header draws one only outside it
  const [headerBack] = useState(() => !usesTelegramBackButton());

  // A new screen starts at the top.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);

  return (
    <div className="app">
      <Header showBack={showBack && headerBack} onBack={goBack} />
      <main className="app__main">
        <ErrorBoundary key={pathname}>
          <Suspense fallback={<ScreenLoading />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
      <TabBar />
    </div>
  );
}
