import { atom } from 'jotai';
import type { BattleEventMessage } from '../../contract/battles.ts';
import type { DepositCreditedMessage } from '../../contract/deposit.ts';
import { api, API_BASE, onLogin } from '../api';
import { appSocketUrl, openAppSocket, type AppSocket } from '../api/app-socket';
import type { SocketStatus } from '../api/socket';
import { lastKeptDropId, receiveDrops } from './feed';
import { balanceLiveAtom, queryKeys } from './queries';
import { scenePlayingAtom } from './scenes';
import { queryClient, store } from './store';

/**
 * The app's one socket, opened once at start and kept for the app's life (DESIGN.md rule 8): the feed goes
 * to the feed atoms, the pushed balance into the balance query (the header shows it at once), deposit
 * credits to whoever listens (the deposit sheet), battle events to the battle queries, a withdrawal's change
 * to the withdrawals query. While it is not
 * signed in and open (`balanceLiveAtom` false), the balance query polls instead (src/state/queries.ts).
 */

/** The socket's state: connecting, live, or paused while the app is hidden. */
export const liveStatusAtom = atom<SocketStatus>('connecting');

let socket: AppSocket | null = null;
const depositListeners = new Set<(message: DepositCreditedMessage) => void>();
const reconnectListeners = new Set<() => void>();
const battleListeners = new Set<(message: BattleEventMessage) => void>();
let battleWatchers = 0;
let keepHidden = 0;

/** A pushed balance that came while a scene played a spin: shown when it ends (the header holds still). */
let heldBalance: string | null = null;
/** Holds taken by screens whose answer pays before their scene starts playing (see holdBalance). */
let holds = 0;

function showBalance(balance: string): void {
  if (holds > 0 || store.get(scenePlayingAtom)) {
    heldBalance = balance;
    return;
  }
  heldBalance = null;
  if (queryClient.getQueryData<string>(queryKeys.balance) !== balance) {
    queryClient.setQueryData(queryKeys.balance, balance);
  }
}

store.sub(scenePlayingAtom, () => {
  if (!store.get(scenePlayingAtom) && heldBalance !== null) showBalance(heldBalance);
});

/**
 * Holds pushed balances back from now until the returned release is called (once; later calls do nothing).
 * A spin whose request pays a prize (the bonus wheel) takes it at the tap: the prize's push can arrive
 * between the answer and the scene's start, and the header must not tell before the wheel lands. The last
 * held balance is shown on release unless a scene is still playing.
 */
export function holdBalance(): () => void {
  holds += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holds -= 1;
    if (holds === 0 && heldBalance !== null) showBalance(heldBalance);
  };
}

/** Opens the app socket (once). The feed needs no sign-in; the balance follows once a token exists. */
export function startLiveSocket(): void {
  if (socket) return;
  socket = openAppSocket({
    url: appSocketUrl(API_BASE, window.location.origin),
    after: lastKeptDropId(),
    getToken: () => api.session.getToken(),
    // the token was refused (expired): any call answered 401 signs in again, and onLogin re-sends it
    refreshToken: async () => {
      await api.request('/auth/me').catch(() => undefined);
    },
    onDrops: receiveDrops,
    onBalance: (balance) => showBalance(balance),
    onDeposit: (message) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.me });
      // a gift deposit lands in the inventory
      if (message.item) void queryClient.invalidateQueries({ queryKey: queryKeys.inventory });
      for (const listener of depositListeners) listener(message);
    },
    onBattle: (message) => {
      for (const listener of battleListeners) listener(message);
    },
    onWithdrawal: (message) => {
      // the timeline moved; a failed one gave its items back to the inventory
      void queryClient.invalidateQueries({
        queryKey: message.status === 'failed' ? queryKeys.inventory : queryKeys.withdrawals,
      });
    },
    onSignedIn: (reconnected) => {
      if (reconnected) for (const listener of reconnectListeners) listener();
    },
    onLive: (live) => store.set(balanceLiveAtom, live),
    onStatus: (status) => store.set(liveStatusAtom, status),
    keepWhileHidden: () => keepHidden > 0,
  });
  onLogin(() => socket?.authenticate());
}

/**
 * Deposit credits for the caller (the deposit sheet) until the returned function is called. Meanwhile the
 * socket stays open while the app is hidden: the player pays in the wallet app.
 */
export function listenForDeposits(handlers: {
  onCredited(message: DepositCreditedMessage): void;
  onReconnected?(): void;
}): () => void {
  startLiveSocket();
  const credited = (message: DepositCreditedMessage) => handlers.onCredited(message);
  const reconnected = () => handlers.onReconnected?.();
  depositListeners.add(credited);
  reconnectListeners.add(reconnected);
  keepHidden += 1;
  return () => {
    depositListeners.delete(credited);
    reconnectListeners.delete(reconnected);
    keepHidden -= 1;
    socket?.visibilityChanged();
  };
}

/** Battle events (of every battle) for the caller until the returned function is called. */
export function watchBattles(
  onEvent: (message: BattleEventMessage) => void,
  onReconnected: () => void,
): () => void {
  startLiveSocket();
  battleListeners.add(onEvent);
  reconnectListeners.add(onReconnected);
  battleWatchers += 1;
  if (battleWatchers === 1) socket?.watchBattles('all');
  return () => {
    battleListeners.delete(onEvent);
    reconnectListeners.delete(onReconnected);
    battleWatchers -= 1;
    if (battleWatchers === 0) socket?.watchBattles([]);
  };
}
