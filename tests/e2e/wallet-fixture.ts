import { beginCell } from '@ton/core';
import type { Page } from '@playwright/test';

// A test wallet injected into the page through the TON Connect JS bridge, the way a browser extension
// wallet does it: `window[jsBridgeKey].tonconnect` with walletInfo, deviceInfo, protocolVersion 2,
// connect(), restoreConnection(), send() and listen(). It uses Tonkeeper's bridge key, so TON Connect's
// built-in wallet list (used here because the public list cannot be fetched) marks Tonkeeper as injected.
// TON Connect UI offers the extension path on its desktop layout (Tonkeeper → Browser Extension); on the
// phone layout a wallet opens by universal link instead, so these pages get a desktop-sized viewport.
// Every request the app sends is recorded on `window.__testWallet`.

/** The test wallet's account (raw form) on mainnet. */
export const TEST_WALLET_RAW = `0:${'5a'.repeat(32)}`;
const JS_BRIDGE_KEY = 'tonkeeper';

/** What the wallet received for one sendTransaction request (its single JSON parameter, parsed). */
interface SentTransaction {
  valid_until: number;
  network?: string;
  from?: string;
  messages: { address: string; amount: string; payload?: string; stateInit?: string }[];
}

export interface TestWalletState {
  connected: boolean;
  sent: SentTransaction[];
  /** set to decline the next sendTransaction requests (user rejection, code 300) */
  decline: boolean;
  /** disconnect from the wallet's side: emits {event: 'disconnect'} to the app */
  disconnectFromWallet(): void;
}

/** Blocks every request that leaves this machine (the public wallets list, wallet icons, analytics). */
export async function blockExternalRequests(page: Page): Promise<void> {
  await page.context().route('**/*', (route) => {
    const { hostname } = new URL(route.request().url());
    if (hostname === '127.0.0.1' || hostname === 'localhost') return route.continue();
    return route.abort('blockedbyclient');
  });
}

/** Injects the test wallet before any page script runs (and on every reload). */
export async function injectTestWallet(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1024, height: 800 });
  const emptyCell = beginCell().endCell().toBoc().toString('base64');
  await page.addInitScript(
    ({ key, raw, emptyCell }) => {
      const device = {
        platform: 'browser',
        appName: 'Tonkeeper',
        appVersion: '9.9.9',
        maxProtocolVersion: 2,
        features: ['SendTransaction', { name: 'SendTransaction', maxMessages: 4 }],
      };
      const listeners = new Set<(event: unknown) => void>();
      let nextEventId = 1;
      const connectEvent = () => ({
        event: 'connect',
        id: nextEventId++,
        payload: {
          items: [
            {
              name: 'ton_addr',
              address: raw,
              network: '-239',
              walletStateInit: emptyCell,
              publicKey: 'ab'.repeat(32),
            },
          ],
          device,
        },
      });
      const state = {
        connected: sessionStorage.getItem('test-wallet:connected') === '1',
        sent: [] as unknown[],
        decline: false,
        disconnectFromWallet() {
          setConnected(false);
          listeners.forEach((listener) => listener({ event: 'disconnect', id: nextEventId++, payload: {} }));
        },
      };
      const setConnected = (value: boolean) => {
        state.connected = value;
        sessionStorage.setItem('test-wallet:connected', value ? '1' : '0');
      };
      (window as unknown as Record<string, unknown>).__testWallet = state;
      (window as unknown as Record<string, unknown>)[key] = {
        tonconnect: {
          deviceInfo: device,
          walletInfo: {
            name: 'Tonkeeper',
            app_name: 'tonkeeper',
            image: 'https://tonkeeper.com/assets/tonconnect-icon.png',
            about_url: 'https://tonkeeper.com',
            platforms: ['chrome', 'firefox', 'safari'],
          },
          protocolVersion: 2,
          isWalletBrowser: false,
          async connect(_protocolVersion: number, _message: unknown) {
            setConnected(true);
            return connectEvent();
          },
          async restoreConnection() {
            if (!state.connected) {
              return {
                event: 'connect_error',
                id: nextEventId++,
                payload: { code: 0, message: 'not connected' },
              };
            }
            return connectEvent();
          },
          async send(request: { method: string; params: string[]; id: string }) {
            if (request.method === 'sendTransaction') {
              state.sent.push(JSON.parse(request.params[0]!));
              if (state.decline) {
                return { error: { code: 300, message: 'User declined the transaction' }, id: request.id };
              }
              return { result: emptyCell, id: request.id };
            }
            if (request.method === 'disconnect') {
              setConnected(false);
              return { result: {}, id: request.id };
            }
            return { error: { code: 400, message: 'unsupported' }, id: request.id };
          },
          listen(callback: (event: unknown) => void) {
            listeners.add(callback);
            return () => listeners.delete(callback);
          },
          disconnect() {
            setConnected(false);
          },
        },
      };
    },
    { key: JS_BRIDGE_KEY, raw: TEST_WALLET_RAW, emptyCell },
  );
}

/** The wallet's state as recorded in the page. */
export function testWalletState(page: Page): Promise<Omit<TestWalletState, 'disconnectFromWallet'>> {
  return page.evaluate(() => {
    const state = (window as unknown as { __testWallet: TestWalletState }).__testWallet;
    return { connected: state.connected, sent: state.sent, decline: state.decline };
  });
}

/** Opens the TON Connect modal from the header button and picks the injected Tonkeeper. */
export async function connectThroughModal(page: Page): Promise<void> {
  await page.getByTestId('wallet-button').and(page.locator('[data-state="disconnected"]')).click();
  await pickInjectedWallet(page);
}

/** In an open TON Connect modal, picks Tonkeeper, then its browser extension: the injected test wallet. */
export async function pickInjectedWallet(page: Page): Promise<void> {
  // the wallets modal only (a transaction's action modal may follow it at once)
  const modal = page.locator('[data-tc-wallets-modal-container]');
  await modal.waitFor();
  await modal.locator('[data-tc-wallet-item]', { hasText: 'Tonkeeper' }).first().click();
  await modal.getByRole('button', { name: /Browser Extension|Расширение/ }).click();
  await modal.waitFor({ state: 'detached' });
}
