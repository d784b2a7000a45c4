import { Suspense, use } from 'react';
import { BrowserRouter } from 'react-router';
import { LaunchErrorScreen } from '../features/launch/LaunchErrorScreen';
import { LoadingScreen } from '../features/launch/LoadingScreen';
import type { PlatformState } from '../lib/telegram';
import { ErrorBoundary } from './ErrorBoundary';
import { Providers } from './Providers';
import { AppRoutes, isPublicPath, PublicRoutes } from './routes';

function Launched({ launch }: { launch: Promise<PlatformState> }) {
  const platform = use(launch);
  if (platform.status !== 'ready') {
    // the public verifier needs neither Telegram nor a session
    if (isPublicPath(window.location.pathname)) {
      return (
        <BrowserRouter>
          <PublicRoutes />
        </BrowserRouter>
      );
    }
    return <LaunchErrorScreen />;
  }
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}

/** Loading screen until the platform is ready, then the routed app (or the outside-Telegram error). */
export function App({ launch }: { launch: Promise<PlatformState> }) {
  return (
    <Providers>
      <ErrorBoundary>
        <Suspense fallback={<LoadingScreen />}>
          <Launched launch={launch} />
        </Suspense>
      </ErrorBoundary>
    </Providers>
  );
}
