import { api } from '../api';
import { adoptLaunchLanguage } from '../i18n';
import { initPlatform, launchStartParam, type PlatformState } from '../lib/telegram';
import { routeStartParam } from '../lib/start-param';
import { isPublicPath } from './routes';

/**
 * Start: make the Telegram platform ready (or mock it with demo launch data) and start signing in once if
 * no token is saved. The first screen renders meanwhile (the case list needs no session); the API client
 * holds every call until the sign-in is over, so none is asked before the session exists.
 */
export async function bootstrap(): Promise<PlatformState> {
  // a startapp deep link (case_, battle_, verify_) opens its screen: the address changes before the router reads it
  routeStartParam(launchStartParam());
  const platform = await initPlatform().catch((error: unknown) => {
    console.error('Platform initialization failed', error);
    return { status: 'outside-telegram' } as const;
  });
  // the public verifier (/verify) is for anyone: no sign-in before it renders
  if (platform.status === 'ready' && !isPublicPath(window.location.pathname)) void api.startSession();
  // no language chosen yet: the player's Telegram language decides before the app shows (a code the URL did not carry at start)
  if (platform.status === 'ready') await adoptLaunchLanguage(platform.initData).catch(() => undefined);
  return platform;
}
