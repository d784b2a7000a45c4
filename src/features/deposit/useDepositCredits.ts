import { useEffect, useRef } from 'react';
import type { DepositCreditedMessage } from '../../../contract/deposit.ts';
import { listenForDeposits } from '../../state/live';

export interface DepositCreditsHandlers {
  /** a credit arrived (the pushed balance follows on the same socket) */
  onCredited(message: DepositCreditedMessage): void;
  /** the socket came back after a drop: credits may have been missed meanwhile */
  onReconnected?(): void;
}

/**
 * Deposit credits on the app's one socket while the calling component (the deposit sheet) is mounted; the
 * socket then stays open while the app is hidden, as the player pays in the wallet app. The balance itself
 * reaches the header through the socket's balance pushes.
 */
export function useDepositCredits(handlers: DepositCreditsHandlers): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });

  useEffect(
    () =>
      listenForDeposits({
        onCredited: (message) => latest.current.onCredited(message),
        onReconnected: () => latest.current.onReconnected?.(),
      }),
    [],
  );
}
