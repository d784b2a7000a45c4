/** How long a closed dialog keeps catching the taps aimed at it, ms (its fade-out and a double tap's second). */
const CLOSE_GUARD_MS = 500;
/** A tap that began on the guard is waited for this long at most for its click (a swipe has none), ms. */
const CLICK_WAIT_MS = 1000;

const SWALLOWED = ['pointerdown', 'pointerup', 'touchstart', 'touchend', 'mousedown', 'mouseup', 'click'];

/**
 * The close guard of every dialog and sheet: called as it closes, it leaves a transparent layer over the
 * screen for `ms`, fading the dimmed backdrop out, that swallows the taps aimed at the dialog (a second tap
 * 60 ms after the one that closed it, a tap during the fade, and any tap that follows those within `ms`),
 * so none falls through to the tab bar or a button beneath. A tap that began on the guard is swallowed
 * whole: the guard stays until that tap's click has come (the browser may send it a while after the touch).
 * Plain DOM, so it outlives the dialog's component.
 */
export function shieldTaps(ms = CLOSE_GUARD_MS): void {
  const shield = document.createElement('div');
  shield.className = 'tap-shield';
  shield.dataset.testid = 'tap-shield';
  shield.setAttribute('aria-hidden', 'true');
  shield.style.animationDuration = `${ms}ms`;
  let timer = setTimeout(() => shield.remove(), ms);
  const removeIn = (wait: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => shield.remove(), wait);
  };
  const swallow = (event: Event) => {
    event.stopPropagation();
    // the click is cancelled; the touch itself is not, so that the browser still ends it with a click here
    if (event.type === 'click' || event.type.startsWith('mouse')) event.preventDefault();
    if (event.type === 'click') removeIn(ms);
    else if (event.type === 'pointerdown' || event.type === 'touchstart') removeIn(CLICK_WAIT_MS + ms);
  };
  for (const type of SWALLOWED) shield.addEventListener(type, swallow);
  document.body.append(shield);
}
