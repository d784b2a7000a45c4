import { useEffect, useRef } from 'react';
import type { DepositCreditedMessage } from '../../../contract/deposit.ts';
import { api, API_BASE } from '../../api';
import { queryKeys } from '../../state/queries';
import { queryClient } from '../../state/store';
import { depositSocketUrl, openDepositSocket } from './socket';

export interface DepositCreditsHandlers {
  /** a credit arrived (the balance caches are already updated) */
  onCredited(message: DepositCreditedMessage): void;
  /** the socket came back after a drop: credits may have been missed meanwhile */
  onReconnected?(): void;
}

/** A credit updates the cached balance at once and refreshes the user and balance from the server. */
function applyCredit(message: DepositCreditedMessage): void {
  queryClient.setQueryData(queryKeys.balance, message.balance);
  void queryClient.invalidateQueries({ queryKey: queryKeys.me });
  void queryClient.invalidateQueries({ queryKey: queryKeys.balance });
  // a gift deposit lands in the inventory
  if (message.item) void queryClient.invalidateQueries({ queryKey: queryKeys.inventory });
}

/**
 * Keeps the deposit socket open while the calling component (the deposit sheet) is mounted. It opens with
 * the sheet rather than at the first deposit so it is authenticated before a credit can land (demo credits
 * land within seconds), and only then: elsewhere the 5-second balance poll shows credits, and an idle
 * player holds no connection.
 */
export function useDepositCredits(handlers: DepositCreditsHandlers): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });

  useEffect(() => {
    const socket = openDepositSocket({
      url: depositSocketUrl(API_BASE, window.location.origin),
      getToken: () => api.session.getToken(),
      onCredited: (message) => {
        applyCredit(message);
        latest.current.onCredited(message);
      },
      onReady: (reconnected) => {
        if (reconnected) latest.current.onReconnected?.();
      },
      // the server refused the token (expired): any call answered 401 signs in again
      refreshToken: async () => {
        await api.request('/auth/me').catch(() => undefined);
      },
    });
    return () => socket.close();
  }, []);
}
