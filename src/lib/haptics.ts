import { hapticFeedback, retrieveLaunchParams, swipeBehavior } from '@telegram-apps/sdk-react';
import { atTimes, spacedTimes } from './schedule';

/**
 * Telegram haptics and swipe control, shared by every screen. Inside Telegram on a phone they reach the
 * client; on a client without a haptic engine (desktop, web, the demo's imitation), outside Telegram or on
 * a client too old for them, every call is a no-op.
 */

/** Telegram's platforms that run on a phone: a haptic engine, and the swipe down that minimizes the app. */
const PHONE_PLATFORMS: ReadonlySet<string> = new Set(['android', 'android_x', 'ios']);

let phone: boolean | undefined;

/**
 * Whether this client is Telegram on a phone. Elsewhere a haptic or a swipe setting would only cross the
 * bridge to a client that drops it: a spin's tick haptics would be main-thread work for nothing.
 */
function onPhone(): boolean {
  if (phone === undefined) {
    try {
      phone = PHONE_PLATFORMS.has(retrieveLaunchParams().tgWebAppPlatform);
    } catch {
      phone = false;
    }
  }
  return phone;
}

// The first answer reads the launch parameters (the URL, then session storage, which it also writes): done
// while the page is idle, so it is not part of the first money tap, whose haptic comes before its request
globalThis.requestIdleCallback?.(() => onPhone());

/** Whether this client can vibrate. */
const hasHapticEngine = onPhone;

/** The shortest gap between two selection haptics, ms: the Taptic engine blurs faster pulses. */
const SELECTION_MIN_GAP_MS = 70;

let lastSelectionAt = -Infinity;

/** A light tick, e.g. a roulette card crossing the marker; rate-limited to SELECTION_MIN_GAP_MS. */
export function hapticSelection(now: number = performance.now()): void {
  if (!hasHapticEngine() || now - lastSelectionAt < SELECTION_MIN_GAP_MS) return;
  lastSelectionAt = now;
  try {
    hapticFeedback.selectionChanged.ifAvailable();
  } catch {
    // no haptics here
  }
}

/**
 * A selection haptic at each of `times` (performance.now() values: a spin's crossings, known when it
 * starts), spaced like hapticSelection. Nothing is armed where haptics are unavailable (outside Telegram).
 * Returns a function that cancels the ones still to come.
 */
export function scheduleSelections(times: readonly number[]): () => void {
  let available = false;
  try {
    available = hasHapticEngine() && hapticFeedback.selectionChanged.isAvailable();
  } catch {
    // no haptics here
  }
  if (!available) return () => undefined;
  return atTimes(spacedTimes(times, SELECTION_MIN_GAP_MS, lastSelectionAt), () => hapticSelection());
}

/** Success, warning or error feedback, e.g. success on a win. */
export function hapticNotification(type: 'success' | 'warning' | 'error'): void {
  if (!hasHapticEngine()) return;
  try {
    hapticFeedback.notificationOccurred.ifAvailable(type);
  } catch {
    // no haptics here
  }
}

/** A tap feedback, e.g. on a main action. */
export function hapticImpact(style: 'light' | 'medium' | 'heavy' = 'light'): void {
  if (!hasHapticEngine()) return;
  try {
    hapticFeedback.impactOccurred.ifAvailable(style);
  } catch {
    // no haptics here
  }
}

function mountSwipeBehavior(): boolean {
  // only a phone's client minimizes the app on a swipe down: elsewhere there is nothing to turn off, and
  // mounting the SDK's swipe component (it reads the launch data, writes session storage) is work for nothing
  if (!onPhone()) return false;
  try {
    if (!swipeBehavior.isMounted()) swipeBehavior.mount.ifAvailable();
    return swipeBehavior.isMounted();
  } catch {
    return false;
  }
}

/**
 * Readies the swipe lock ahead (a screen that will lock swipes calls it when it mounts), so that locking
 * them as a spin starts is one message to the client, not the SDK component's mount as well.
 */
export function prepareVerticalSwipeLock(): void {
  mountSwipeBehavior();
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
