import { resolve } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { BOT_TOKEN, signLaunchData, startServer, type LaunchUser, type TestServer } from '../api/harness.ts';

// Several Telegram players in one browser test. The shared e2e server runs in demo mode, where every
// browser is the one demo player; a test that needs other players starts its own server in-process (the
// real app: built client, API, embedded database) with a known bot token, signs Telegram launch data for
// each player with it, and opens the app the way Telegram does: launch parameters in the URL's hash and a
// stand-in for the Telegram client's bridge (window.TelegramWebviewProxy). The app then takes the real
// Telegram path: it reads the launch data and signs in with it.

export type { TestServer };

/** The real server on a free port, serving the built client (run `vite build` first). */
export function startAppServer(env: NodeJS.ProcessEnv = {}): Promise<TestServer> {
  return startServer({
    config: { clientDir: resolve('dist'), assetsDir: resolve('assets') },
    env: { LOG_LEVEL: 'warn', ...env },
  });
}

/** A dark palette as Telegram sends it in tgWebAppThemeParams. */
const THEME = {
  bg_color: '#0e1117',
  secondary_bg_color: '#151a23',
  text_color: '#f2f4f8',
  hint_color: '#8b94a7',
  link_color: '#5eb0ff',
  button_color: '#2d8cff',
  button_text_color: '#ffffff',
};

/** The hash Telegram opens a Mini App with, carrying launch data signed for `user`. */
function launchHash(user: LaunchUser, startParam?: string): string {
  return new URLSearchParams([
    ['tgWebAppData', signLaunchData(user, BOT_TOKEN, new Date(), startParam)],
    ...(startParam ? [['tgWebAppStartParam', startParam]] : []),
    ['tgWebAppVersion', '8.0'],
    ['tgWebAppPlatform', 'tdesktop'],
    ['tgWebAppThemeParams', JSON.stringify(THEME)],
  ]).toString();
}

/**
 * Makes every page of the context a Telegram WebView: the client's bridge takes the app's calls and
 * answers the viewport request as Telegram would. The interface language is fixed with `lang`.
 */
async function actAsTelegram(
  context: BrowserContext,
  lang: 'en' | 'ru' | null = 'en',
  insets: SafeAreas = NO_INSETS,
): Promise<void> {
  await context.addInitScript(
    ({ language, insets }) => {
      if (language) localStorage.setItem('lang', language);
      interface Bridge {
        TelegramWebviewProxy?: { postEvent(type: string, data: string): void };
        Telegram?: { WebView?: { receiveEvent?: (type: string, data: unknown) => void } };
        __telegramEvents?: { type: string; data: string }[];
      }
      const w = window as unknown as Bridge;
      // what the app asked of Telegram, in order (its back button's state, for one)
      w.__telegramEvents = [];
      w.TelegramWebviewProxy = {
        postEvent(type, data) {
          w.__telegramEvents!.push({ type, data });
          // the device's safe area and Telegram's own controls' (fullscreen), as Telegram reports them
          if (type === 'web_app_request_safe_area')
            setTimeout(() => w.Telegram?.WebView?.receiveEvent?.('safe_area_changed', insets.device));
          if (type === 'web_app_request_content_safe_area')
            setTimeout(() =>
              w.Telegram?.WebView?.receiveEvent?.('content_safe_area_changed', insets.content),
            );
          if (type !== 'web_app_request_viewport') return;
          setTimeout(() =>
            w.Telegram?.WebView?.receiveEvent?.('viewport_changed', {
              height: window.innerHeight,
              width: window.innerWidth,
              is_expanded: true,
              is_state_stable: true,
            }),
          );
        },
      };
    },
    { language: lang, insets },
  );
}

interface Insets {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** Safe areas Telegram reports: the device's (notch, home bar) and the content's (its own fullscreen controls). */
export interface SafeAreas {
  device: Insets;
  content: Insets;
}

const NO_INSETS: SafeAreas = {
  device: { top: 0, bottom: 0, left: 0, right: 0 },
  content: { top: 0, bottom: 0, left: 0, right: 0 },
};

/**
 * A player: a browser context acting as Telegram, signed in as `user` on `server`, at `path`. `lang` is the
 * language the player chose earlier (null: none yet, the launch data's `language_code` decides); `insets`
 * the safe areas Telegram reports.
 */
export async function openAs(
  context: BrowserContext,
  server: TestServer,
  user: LaunchUser,
  path: string,
  lang: 'en' | 'ru' | null = 'en',
  insets: SafeAreas = NO_INSETS,
  startParam?: string,
): Promise<Page> {
  await actAsTelegram(context, lang, insets);
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}${path}#${launchHash(user, startParam)}`);
  await page.waitForFunction(() => localStorage.getItem('token') !== null);
  return page;
}

/** Whether the app shows Telegram's own back button now (its last web_app_setup_back_button). */
export async function telegramBackShown(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const events = (window as { __telegramEvents?: { type: string; data: string }[] }).__telegramEvents ?? [];
    const last = events.filter((e) => e.type === 'web_app_setup_back_button').at(-1);
    return last ? (JSON.parse(last.data) as { is_visible?: boolean }).is_visible === true : false;
  });
}

/** Presses Telegram's back button, as the client reports it to the Mini App. */
export async function pressTelegramBack(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as { Telegram?: { WebView?: { receiveEvent?: (type: string, data: unknown) => void } } };
    w.Telegram?.WebView?.receiveEvent?.('back_button_pressed', {});
  });
}

/** The session token the app signed in with (for reading the API as that player). */
export async function tokenOf(page: Page): Promise<string> {
  return (await page.evaluate(() => localStorage.getItem('token')))!;
}
