import type { PlatformState } from '../lib/telegram';
import { balanceQuery, casesQuery } from './queries';
import { queryClient } from './store';

/**
 * The first screen's data, asked for before React mounts (while the language chunk and the app's code still
 * load): the case list at once (it needs no session), the balance as soon as the session exists. Both land
 * in the one QueryClient under the keys the screens' query atoms use, so the first render finds them there
 * (or in flight) instead of starting its own requests. A failure here is left to those atoms to retry.
 */
export function prefetchFirstScreen(launch: Promise<PlatformState>): void {
  void queryClient.prefetchQuery(casesQuery);
  void launch.then((platform) => {
    // the public verifier (/verify) needs no session: asking for a balance there would sign in
    if (platform.status === 'ready' && !window.location.pathname.startsWith('/verify')) {
      void queryClient.prefetchQuery(balanceQuery);
    }
  });
}
