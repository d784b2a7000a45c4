import { atom } from 'jotai';
import { store } from '../../state/store';
import type { WalletRuntime } from './runtime';

// The wallet as the rest of the app sees it, without loading TON Connect: the lazily loaded runtime
// (runtime.ts) mirrors the connection into this atom, and actions go through `loadWalletRuntime()`.

export type WalletState =
  /** TON Connect not loaded yet, or restoring the previous connection */
  | { status: 'loading' }
  | { status: 'disconnected' }
  | {
      status: 'connected';
      /** user-friendly form (what the player sees and copies) */
      address: string;
      /** raw form 0:<64 hex> */
      rawAddress: string;
      /** the wallet app's name, e.g. Tonkeeper */
      walletName: string | null;
    };

export const walletAtom = atom<WalletState>({ status: 'loading' });

/** True once anything asked for TON Connect (the header button, the deposit sheet, the profile). */
export const walletRequestedAtom = atom(false);

/** Where TON Connect keeps the session it restores (its own storage key). */
const STORED_CONNECTION_KEY = 'ton-connect-storage_bridge-connection';

/**
 * Whether this device connected a wallet before: only then is TON Connect loaded without being asked
 * (after the first screen), to restore the connection. A player who never connected one never loads it.
 */
export function hasStoredConnection(): boolean {
  try {
    return window.localStorage.getItem(STORED_CONNECTION_KEY) !== null;
  } catch {
    return false;
  }
}

let loading: Promise<WalletRuntime> | null = null;

/**
 * Loads TON Connect UI (its own chunk) and creates the one TonConnectUI instance; resolves the actions.
 * Safe to call often: the first call starts it, later ones share it. A failure may be retried.
 * Only on wallet intent: nothing on the first screen calls it for a player without a stored connection.
 */
export function loadWalletRuntime(): Promise<WalletRuntime> {
  store.set(walletRequestedAtom, true);
  loading ??= import('./runtime')
    .then((module) => module.startWalletRuntime())
    .catch((error: unknown) => {
      loading = null;
      throw error;
    });
  return loading;
}

/** Runs `task` when the browser is idle (or after `timeoutMs` at the latest); returns a cancel function. */
export function whenIdle(task: () => void, timeoutMs = 1500): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(task, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(task, 200);
  return () => window.clearTimeout(handle);
}
