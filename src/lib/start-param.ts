/**
 * Deep links into the app: `t.me/<bot>/<app>?startapp=<param>` (Telegram hands the param over in the
 * launch data's start_param) and the bot's `/start <param>` open the matching screen. Only three kinds are
 * routed here: case_<id>, battle_<id> and verify_<betId>; any other (ref_<id> invites are read at sign-in)
 * leaves the app where it starts.
 */
export function startParamPath(param: string | null | undefined): string | null {
  const match = /^(case|battle|verify)_([A-Za-z0-9_-]{1,64})$/.exec(param ?? '');
  return match ? `/${match[1]}/${match[2]}` : null;
}

/** Set once this tab has followed its start param, so a reload or a way back to / does not follow it again. */
const ROUTED_KEY = 'giftcases:start-param-routed';

/**
 * Moves the app to the start param's screen before the router reads the address, once per tab, and only
 * from the app's first screen (a link to another screen wins). `param` is the launch data's start_param.
 */
export function routeStartParam(param: string | null | undefined): void {
  const path = startParamPath(param);
  if (!path || window.location.pathname !== '/') return;
  try {
    if (sessionStorage.getItem(ROUTED_KEY) === param) return;
    sessionStorage.setItem(ROUTED_KEY, param!);
  } catch {
    // no session storage (some embedded browsers): follow it anyway
  }
  window.history.replaceState(window.history.state, '', path + window.location.hash);
}

/**
 * The share link of a battle: the Mini App's t.me link (TWA_RETURN_URL, e.g. https://t.me/your_bot/app) with
 * startapp=battle_<id>; without one, the battle's address in this app.
 */
export function battleShareLink(
  miniAppLink: string | null | undefined,
  battleId: string,
  origin: string,
): string {
  if (miniAppLink && /^https:\/\/t\.me\//.test(miniAppLink)) {
    const url = new URL(miniAppLink);
    url.searchParams.set('startapp', `battle_${battleId}`);
    return url.toString();
  }
  return `${origin}/battle/${battleId}`;
}
