import { miniApp } from '@telegram-apps/sdk-react';
import {
  CHAIN,
  THEME,
  TonConnectUI,
  toUserFriendlyAddress,
  type Locales,
  type Theme,
  type Wallet,
} from '@tonconnect/ui-react';
import type { PublicConfig } from '../../../contract/auth.ts';
import { api } from '../../api';
import { currentLanguage, i18n } from '../../i18n';
import { commentPayload } from '../../lib/ton-comment';
import { queryKeys } from '../../state/queries';
import { queryClient, store } from '../../state/store';
import { walletAtom, type WalletState } from './state';

// The TON Connect side of the app, in its own chunk (never part of the first screen). TON Connect UI does
// the wallet work (modal, wallet list, QR, bridge, action modals, notifications); here it is only
// configured, and its connection is mirrored into `walletAtom` for the parts of the app that do not load it.

/**
 * How long a TON deposit message stays valid, s (TON Connect wants seconds). The spec's 600 s is more than
 * wallets accept: they refuse a validUntil over 5 minutes ahead, so 300.
 */
const TON_TRANSFER_VALIDITY_S = 300;

interface TonTransfer {
  /** the receiving address */
  address: string;
  /** nanoTON as a decimal string */
  amountNano: string;
  /** the text comment that tells the server whose deposit it is */
  comment: string;
}

export interface WalletRuntime {
  /** the one TonConnectUI instance (for TonConnectUIProvider) */
  ui: TonConnectUI;
  isConnected(): boolean;
  /** opens the TON Connect modal (wallet list, QR) */
  connect(): Promise<void>;
  /**
   * Opens the TON Connect modal and resolves once a wallet is connected (true), or false when the player
   * closes the modal without one or the connection fails. True at once when already connected.
   */
  connectAndWait(): Promise<boolean>;
  disconnect(): Promise<void>;
  /**
   * Asks the connected wallet to send one message: `amountNano` to `address` with the text comment, valid
   * for TON_TRANSFER_VALIDITY_S. Rejects when the wallet declines, the request fails or no wallet is connected.
   */
  sendTransfer(transfer: TonTransfer): Promise<void>;
}

let runtime: WalletRuntime | null = null;
let starting: Promise<WalletRuntime> | null = null;

/** The runtime once started (HeaderWallet is loaded after `startWalletRuntime` resolved). */
export function currentWalletRuntime(): WalletRuntime {
  if (!runtime) throw new Error('The wallet runtime has not been started');
  return runtime;
}

/** Creates the TonConnectUI instance once (it restores the previous connection by itself). */
export function startWalletRuntime(): Promise<WalletRuntime> {
  starting ??= create().catch((error: unknown) => {
    starting = null;
    throw error;
  });
  return starting;
}

function toLocale(language: string): Locales {
  return language === 'ru' ? 'ru' : 'en';
}

/** TON Connect's theme follows Telegram's (dark or light); outside a mounted Mini App, the system's. */
function currentTheme(): Theme | 'SYSTEM' {
  try {
    if (miniApp.isMounted()) return miniApp.isDark() ? THEME.DARK : THEME.LIGHT;
  } catch {
    // not available: the system's
  }
  return 'SYSTEM';
}

/** The app's accent colour (the Telegram button colour), for TON Connect's buttons and accents. */
function accentColor(): string | undefined {
  const value = getComputedStyle(document.documentElement).getPropertyValue('--accent').trim();
  return /^#[0-9a-f]{3,8}$/i.test(value) ? value : undefined;
}

function isDeepLink(url: string | null): url is `${string}://${string}` {
  return !!url && /^[a-z][\w+.-]*:\/\/\S+$/i.test(url);
}

function stateOf(wallet: Wallet | null): WalletState {
  if (!wallet) return { status: 'disconnected' };
  const { address, chain } = wallet.account;
  return {
    status: 'connected',
    address: toUserFriendlyAddress(address, chain === CHAIN.TESTNET),
    rawAddress: address,
    walletName: 'name' in wallet && typeof wallet.name === 'string' ? wallet.name : wallet.device.appName,
  };
}

async function create(): Promise<WalletRuntime> {
  const config = await queryClient.fetchQuery({
    queryKey: queryKeys.config,
    queryFn: () => api.request<PublicConfig>('/config'),
    staleTime: Infinity,
  });

  const accent = accentColor();
  const colors = accent ? { accent, connectButton: { background: accent } } : undefined;
  const ui = new TonConnectUI({
    manifestUrl: config.tonconnectManifestUrl,
    language: toLocale(currentLanguage()),
    restoreConnection: true,
    enableAndroidBackHandler: true,
    // TON Connect's telemetry would send the player's Telegram user and wallet events to a third party
    // (analytics.ton.org) that the app's Content-Security-Policy does not allow
    analytics: { mode: 'off' },
    actionsConfiguration: {
      returnStrategy: 'back',
      twaReturnUrl: isDeepLink(config.twaReturnUrl) ? config.twaReturnUrl : undefined,
      modals: ['before'],
      notifications: 'all',
    },
    uiPreferences: {
      theme: currentTheme(),
      colorsSet: colors ? { [THEME.DARK]: colors, [THEME.LIGHT]: colors } : undefined,
    },
  });

  // The UI's texts follow the app's language.
  i18n.on('languageChanged', (language: string) => {
    ui.uiOptions = { language: toLocale(language) };
  });

  // Mirror the connection: 'loading' until the previous one is restored, then every status change.
  let restored = false;
  ui.onStatusChange((wallet) => {
    if (restored) store.set(walletAtom, stateOf(wallet));
  });
  void ui.connectionRestored.then(() => {
    restored = true;
    store.set(walletAtom, stateOf(ui.wallet));
  });

  runtime = {
    ui,
    isConnected: () => ui.connected,
    connect: () => ui.openModal(),
    connectAndWait: () =>
      new Promise<boolean>((resolve) => {
        if (ui.connected) {
          resolve(true);
          return;
        }
        let done = false;
        const finish = (connected: boolean) => {
          if (done) return;
          done = true;
          offStatus();
          offModal();
          resolve(connected);
        };
        const offStatus = ui.onStatusChange(
          (wallet) => {
            if (wallet) finish(true);
          },
          () => finish(false),
        );
        // closed by the player after it opened (not because a wallet was picked and is connecting): no wallet
        let opened = false;
        const offModal = ui.onModalStateChange((state) => {
          if (state.status === 'opened') opened = true;
          else if (opened && state.closeReason !== 'wallet-selected' && !ui.connected) finish(false);
        });
        ui.openModal().catch(() => finish(false));
      }),
    disconnect: () => ui.disconnect(),
    async sendTransfer({ address, amountNano, comment }) {
      if (!ui.connected) throw new Error('Wallet not connected');
      await ui.sendTransaction({
        validUntil: Math.floor(Date.now() / 1000) + TON_TRANSFER_VALIDITY_S,
        messages: [{ address, amount: amountNano, payload: commentPayload(comment) }],
      });
    },
  };
  return runtime;
}
