/** How long a closed dialog keeps catching the taps aimed at it, ms (its fade-out and a double tap's second). */
export const CLOSE_GUARD_MS = 350;

const SWALLOWED = ['pointerdown', 'pointerup', 'touchstart', 'touchend', 'mousedown', 'mouseup', 'click'];

/**
 * The close guard of every dialog and sheet: called as it closes, it leaves a transparent layer over the
 * screen for `ms`, fading the dimmed backdrop out, that swallows the taps aimed at the dialog (a second tap
 * 60 ms after the one that closed it, a tap during the fade), so none falls through to the tab bar or a
 * button beneath. Plain DOM, so it outlives the dialog's component.
 */
export function shieldTaps(ms = CLOSE_GUARD_MS): void {
  const shield = document.createElement('div');
  shield.className = 'tap-shield';
  shield.dataset.testid = 'tap-shield';
  shield.setAttribute('aria-hidden', 'true');
  shield.style.animationDuration = `${ms}ms`;
  const swallow = (event: Event) => {
    if (event.cancelable) event.preventDefault();
    event.stopPropagation();
  };
  for (const type of SWALLOWED) shield.addEventListener(type, swallow, { passive: false });
  document.body.append(shield);
  setTimeout(() => shield.remove(), ms);
}
