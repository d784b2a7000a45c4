import {
  backButton,
  createPostEvent,
  emitEvent,
  init,
  isTMA,
  miniApp,
  mockTelegramEnv,
  openLink,
  openTelegramLink,
  retrieveLaunchParams,
  retrieveRawInitData,
  supports,
  themeParams,
  viewport,
  type MethodName,
  type PostEventFn,
} from '@telegram-apps/sdk-react';
import { fetchDemoLaunchData, setInitDataSource } from '../api';

export type PlatformState =
  { status: 'ready'; initData: string | undefined; demo: boolean } | { status: 'outside-telegram' };

/** Marks a tab whose launch parameters we mocked, so a reload mocks again instead of trusting them. */
const MOCKED_KEY = 'giftcases:mocked-launch';

/** A dark palette for the demo environment, in the snake_case form Telegram sends. */
const DEMO_THEME = {
  accent_text_color: '#5eb0ff',
  bg_color: '#0e1117',
  bottom_bar_bg_color: '#0e1117',
  button_color: '#2d8cff',
  button_text_color: '#ffffff',
  destructive_text_color: '#ff5c6c',
  header_bg_color: '#0e1117',
  hint_color: '#8b94a7',
  link_color: '#5eb0ff',
  secondary_bg_color: '#151a23',
  section_bg_color: '#1a202b',
  section_header_text_color: '#5eb0ff',
  section_separator_color: '#262d3a',
  subtitle_text_color: '#8b94a7',
  text_color: '#f2f4f8',
} as const;

function sessionFlag(action: 'get' | 'set'): boolean {
  try {
    if (action === 'set') sessionStorage.setItem(MOCKED_KEY, '1');
    return sessionStorage.getItem(MOCKED_KEY) === '1';
  } catch {
    return false;
  }
}

/** True inside a real Telegram client (not launch parameters this tab mocked earlier). */
function insideTelegram(): boolean {
  return !sessionFlag('get') && isTMA();
}

function noInsets() {
  return { top: 0, bottom: 0, left: 0, right: 0 };
}

/** Imitates Telegram outside it, with the server-signed demo launch data. */
function mockEnvironment(initData: string): void {
  const onEvent: NonNullable<Parameters<typeof mockTelegramEnv>[0]>['onEvent'] = ([method], next) => {
    switch (method) {
      case 'web_app_request_theme':
        return emitEvent('theme_changed', { theme_params: DEMO_THEME });
      case 'web_app_request_viewport':
        return emitEvent('viewport_changed', {
          height: window.innerHeight,
          width: window.innerWidth,
          is_expanded: true,
          is_state_stable: true,
        });
      case 'web_app_request_safe_area':
        return emitEvent('safe_area_changed', noInsets());
      case 'web_app_request_content_safe_area':
        return emitEvent('content_safe_area_changed', noInsets());
      default:
        return next();
    }
  };
  const params = new URLSearchParams([
    ['tgWebAppThemeParams', JSON.stringify(DEMO_THEME)],
    ['tgWebAppVersion', '8.0'],
    ['tgWebAppPlatform', 'tdesktop'],
  ]);
  try {
    mockTelegramEnv({ launchParams: `${params}&tgWebAppData=${encodeURIComponent(initData)}`, onEvent });
  } catch {
    // Launch data the SDK cannot parse: mock the platform without it; sign-in still uses it as is.
    mockTelegramEnv({ launchParams: params, onEvent });
  }
  sessionFlag('set');
}

function settle<T>(promise: PromiseLike<T> | undefined, ms: number): Promise<void> {
  if (!promise) return Promise.resolve();
  return Promise.race([
    Promise.resolve(promise).then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((resolve) => setTimeout(resolve, ms)),
  ]);
}

/**
 * The SDK's postEvent, except where Telegram's webview proxy is there (Android, iOS, and the mocked
 * environment): there an event goes straight to it. The SDK finds the proxy by checking `window` against a
 * schema that, when it matches, copies every property of `window`: each haptic tick of a spin read hundreds
 * of properties, deprecated ones among them (the browser warned about FencedFrame).
 */
function directPostEvent(version: string): PostEventFn {
  const checked = createPostEvent(version) as (method: MethodName, params?: unknown) => void;
  const post = (method: MethodName, params?: unknown) => {
    const proxy = (window as { TelegramWebviewProxy?: { postEvent?: unknown } }).TelegramWebviewProxy;
    // the SDK's own path for what it checks further (a method this client lacks, a header colour's form)
    if (
      typeof proxy?.postEvent !== 'function' ||
      method === 'web_app_set_header_color' ||
      !supports(method, version)
    )
      return checked(method, params);
    (proxy.postEvent as (method: string, params?: string) => void).call(
      proxy,
      method,
      JSON.stringify(params),
    );
  };
  return post as PostEventFn;
}

/** Mounts the Telegram components the shell uses: theme → CSS variables, expanded viewport, back button. */
async function mountComponents(): Promise<void> {
  try {
    init({ postEvent: directPostEvent(retrieveLaunchParams().tgWebAppVersion) });
  } catch {
    return; // unknown environment: the page still works, without Telegram chrome
  }
  miniApp.mountSync.ifAvailable();
  themeParams.mountSync.ifAvailable();
  if (!themeParams.isCssVarsBound()) themeParams.bindCssVars.ifAvailable();
  if (!miniApp.isCssVarsBound()) miniApp.bindCssVars.ifAvailable();
  backButton.mount.ifAvailable();

  if (!viewport.isMounted() && !viewport.isMounting()) {
    const [, mounting] = viewport.mount.ifAvailable();
    await settle(mounting, 2000);
  }
  if (viewport.isMounted()) {
    if (!viewport.isCssVarsBound()) viewport.bindCssVars.ifAvailable();
    viewport.expand.ifAvailable();
  }
  miniApp.ready.ifAvailable();
}

/**
 * Makes the platform ready. Inside Telegram: the real launch data. Outside: the server's demo launch
 * data (only in demo mode) with a mocked environment; without it, the app reports it was opened
 * outside the messenger.
 */
export async function initPlatform(): Promise<PlatformState> {
  let initData: string | undefined;
  let demo = false;
  if (insideTelegram()) {
    try {
      initData = retrieveRawInitData();
    } catch {
      initData = undefined;
    }
    setInitDataSource(() => initData);
  } else {
    initData = await fetchDemoLaunchData();
    if (!initData) return { status: 'outside-telegram' };
    demo = true;
    mockEnvironment(initData);
    // The copy just fetched signs the first sign-in in (no second round trip before the first screen);
    // demo launch data ages like real data, so a later re-login asks the server for a fresh copy.
    let unused: string | undefined = initData;
    setInitDataSource(async () => {
      const first = unused;
      unused = undefined;
      return first ?? (await fetchDemoLaunchData()) ?? initData;
    });
  }
  await mountComponents();
  return { status: 'ready', initData, demo };
}

/**
 * Shares a link: inside Telegram through its share sheet (t.me/share/url: pick a chat), elsewhere by
 * copying it to the clipboard. Says which happened.
 */
export async function shareLink(url: string, text: string): Promise<'shared' | 'copied'> {
  if (insideTelegram()) {
    const share = new URL('https://t.me/share/url');
    share.searchParams.set('url', url);
    share.searchParams.set('text', text);
    openExternalLink(share.toString());
    return 'shared';
  }
  await navigator.clipboard.writeText(url);
  return 'copied';
}

/**
 * The launch's start param (a `startapp` deep link): from Telegram's launch data inside a client, from the
 * address (`?startapp=` or `?tgWebAppStartParam=`) in a plain browser. Null when there is none.
 */
export function launchStartParam(): string | null {
  const query = new URLSearchParams(window.location.search);
  const fromAddress = query.get('startapp') ?? query.get('tgWebAppStartParam');
  if (fromAddress) return fromAddress;
  if (!insideTelegram()) return null;
  try {
    return retrieveLaunchParams().tgWebAppStartParam ?? null;
  } catch {
    return null;
  }
}

/**
 * Whether Telegram's own BackButton serves as the back button: inside a real Telegram client that has it.
 * Elsewhere (the demo environment, a plain browser) the app draws its own.
 */
export function usesTelegramBackButton(): boolean {
  return insideTelegram() && backButton.isMounted();
}

/** Shows the Telegram back button while `visible`, calling `onBack` when pressed; returns a cleanup. */
export function showTelegramBackButton(visible: boolean, onBack: () => void): () => void {
  if (!backButton.isMounted()) return () => undefined;
  if (!visible) {
    backButton.hide.ifAvailable();
    return () => undefined;
  }
  backButton.show.ifAvailable();
  const [, off] = backButton.onClick.ifAvailable(onBack);
  return () => {
    off?.();
    backButton.hide.ifAvailable();
  };
}

/**
 * Opens a link outside the Mini App: inside Telegram through its link API (t.me links with
 * openTelegramLink, others with openLink), elsewhere (the demo environment) in a new tab.
 */
export function openExternalLink(url: string): void {
  if (insideTelegram()) {
    try {
      if (new URL(url).hostname === 't.me' && openTelegramLink.isAvailable()) {
        openTelegramLink(url);
        return;
      }
      if (openLink.isAvailable()) {
        openLink(url);
        return;
      }
    } catch (error) {
      console.error('Telegram could not open the link', error);
    }
  }
  window.open(url, '_blank', 'noopener');
}
