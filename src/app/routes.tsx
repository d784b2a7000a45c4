import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { CaseListPage } from '../features/cases/CaseListPage';
import { RootLayout } from './layout/RootLayout';

/** Resolves at once when online, else when the connection returns. */
function whenOnline(): Promise<void> {
  if (navigator.onLine !== false) return Promise.resolve();
  return new Promise((resolve) => window.addEventListener('online', () => resolve(), { once: true }));
}

/**
 * A screen's code, fetched when first visited; without a connection it is fetched when the connection
 * returns (a failed fetch of a module would be kept failed until a reload), and the screen shows meanwhile
 * that it waits for the connection.
 */
function screen(load: Parameters<typeof lazy>[0]) {
  return lazy(async () => {
    await whenOnline();
    return load();
  });
}

// The case list ships with the first screen; every other screen loads when first visited.
const CasePage = screen(() => import('../features/case/CasePage').then((m) => ({ default: m.CasePage })));
const ProfilePage = screen(() =>
  import('../features/profile/ProfilePage').then((m) => ({ default: m.ProfilePage })),
);
const UpgradePage = screen(() =>
  import('../features/upgrade/UpgradePage').then((m) => ({ default: m.UpgradePage })),
);
const InventoryPage = screen(() =>
  import('../features/inventory/InventoryPage').then((m) => ({ default: m.InventoryPage })),
);
const FairnessPage = screen(() =>
  import('../features/fairness/FairnessPage').then((m) => ({ default: m.FairnessPage })),
);
const BonusWheelPage = screen(() =>
  import('../features/bonus/BonusWheelPage').then((m) => ({ default: m.BonusWheelPage })),
);
const RacePage = screen(() => import('../features/race/RacePage').then((m) => ({ default: m.RacePage })));
const BattlePage = screen(() =>
  import('../features/battle/BattlePage').then((m) => ({ default: m.BattlePage })),
);
const BattleRoomPage = screen(() =>
  import('../features/battle/BattleRoomPage').then((m) => ({ default: m.BattleRoomPage })),
);
// The debug scene switcher, a designer's tool: outside the app's layout; it checks itself whether it is on.
const DebugPage = screen(() => import('../features/debug/DebugPage').then((m) => ({ default: m.DebugPage })));
// The public verifier: outside the signed-in layout, so it works without a session (and outside Telegram).
const VerifyPage = screen(() =>
  import('../features/verify/VerifyPage').then((m) => ({ default: m.VerifyPage })),
);
const NotFoundPage = screen(() =>
  import('../features/not-found/NotFoundPage').then((m) => ({ default: m.NotFoundPage })),
);

const EmbeddedVerifyPage = lazy(() =>
  import('../features/verify/VerifyPage').then((m) => ({ default: () => <m.VerifyPage embedded /> })),
);

/** Paths anyone may open without signing in: the launch neither signs in nor requires Telegram for them. */
export function isPublicPath(pathname: string): boolean {
  return pathname === '/verify' || pathname.startsWith('/verify/');
}

/** The routes of a public path, rendered without the platform or a session. */
export function PublicRoutes() {
  return (
    <Routes>
      <Route path="verify/:betId?" element={<VerifyRoute />} />
    </Routes>
  );
}

function VerifyRoute() {
  return (
    <Suspense fallback={null}>
      <VerifyPage />
    </Suspense>
  );
}

/** Where /deposit leads: the profile, with the deposit sheet open (spec §2). */
const DEPOSIT_REDIRECT = '/profile?openDeposit=true';

export function AppRoutes() {
  return (
    <Routes>
      <Route
        path="debug"
        element={
          <Suspense fallback={null}>
            <DebugPage />
          </Suspense>
        }
      />
      <Route path="verify/:betId?" element={<VerifyRoute />} />
      <Route element={<RootLayout />}>
        <Route index element={<CaseListPage />} />
        <Route path="case/:id" element={<CasePage />} />
        <Route path="profile" element={<ProfilePage />} />
        <Route path="upgrade" element={<UpgradePage />} />
        <Route path="inventory" element={<InventoryPage />} />
        <Route path="fairness" element={<FairnessPage />} />
        {/* a bet's proof inside the app (from the feed, the history, a result sheet), with its header and back */}
        <Route path="proof/:betId" element={<EmbeddedVerifyPage />} />
        <Route path="deposit" element={<Navigate to={DEPOSIT_REDIRECT} replace />} />
        <Route path="wheel" element={<BonusWheelPage />} />
        <Route path="bonus" element={<BonusWheelPage />} />
        <Route path="race" element={<RacePage />} />
        <Route path="battle" element={<BattlePage />} />
        <Route path="battle/:id" element={<BattleRoomPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
