import { hapticFeedback, swipeBehavior } from '@telegram-apps/sdk-react';

/**
 * Telegram haptics and swipe control, shared by every screen. Inside Telegram they reach the client;
 * outside it (or on a client too old for them) every call is a no-op.
 */

/** The shortest gap between two selection haptics, ms: the Taptic engine blurs faster pulses. */
const SELECTION_MIN_GAP_MS = 70;

let lastSelectionAt = -Infinity;

/** A light tick, e.g. a roulette card crossing the marker; rate-limited to SELECTION_MIN_GAP_MS. */
export function hapticSelection(now: number = performance.now()): void {
  if (now - lastSelectionAt < SELECTION_MIN_GAP_MS) return;
  lastSelectionAt = now;
  try {
    hapticFeedback.selectionChanged.ifAvailable();
  } catch {
    // no haptics here
  }
}

/** Success, warning or error feedback, e.g. success on a win. */
export function hapticNotification(type: 'success' | 'warning' | 'error'): void {
  try {
    hapticFeedback.notificationOccurred.ifAvailable(type);
  } catch {
    // no haptics here
  }
}

/** A tap feedback, e.g. on a main action. */
export function hapticImpact(style: 'light' | 'medium' | 'heavy' = 'light'): void {
  try {
    hapticFeedback.impactOccurred.ifAvailable(style);
  } catch {
    // no haptics here
  }
}

function mountSwipeBehavior(): boolean {
  try {
    if (!swipeBehavior.isMounted()) swipeBehavior.mount.ifAvailable();
    return swipeBehavior.isMounted();
  } catch {
    return false;
  }
}

/**
 * Turns off Telegram's swipe-down-to-minimize while something on screen needs vertical gestures or must
 * not be interrupted (a spinning roulette). Returns the function that turns it back on; calling it again
 * does nothing.
 */
export function lockVerticalSwipes(): () => void {
  if (!mountSwipeBehavior()) return () => undefined;
  try {
    swipeBehavior.disableVertical.ifAvailable();
  } catch {
    return () => undefined;
  }
  let locked = true;
  return () => {
    if (!locked) return;
    locked = false;
    try {
      swipeBehavior.enableVertical.ifAvailable();
    } catch {
      // the app was closed meanwhile
    }
  };
}
