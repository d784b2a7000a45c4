// The layout check the layout test runs in the page (page.evaluate): it must stay self-contained, since
// only its source text reaches the browser.

/** One fault: the page scrolls sideways, or a piece of text is cut, spills out of its box or off the screen. */
export interface LayoutFault {
  kind: 'page-overflow' | 'clipped' | 'spills' | 'off-screen';
  element: string;
  text: string;
  detail: string;
}

/**
 * Every horizontal overflow and cut text on screen now:
 * - the page is wider than the screen (it would scroll sideways);
 * - a text is wider than an ancestor that clips it (overflow hidden or clip, text-overflow ellipsis): for
 *   such an element its scrollWidth exceeds its clientWidth, and the text is what sticks out;
 * - a text runs out of the box that holds it (a label wider than its button or card);
 * - a text reaches past the screen's edge.
 * Text inside a strip that scrolls sideways on purpose (overflow auto or scroll) is reachable and is
 * checked only against its own box; text a screen reader alone gets (a 1 px box) is skipped.
 */
export function findLayoutFaults(): LayoutFault[] {
  const TOLERANCE = 0.5;
  const faults: LayoutFault[] = [];
  const root = document.documentElement;
  const width = root.clientWidth;
  const pageWidth = Math.max(root.scrollWidth, document.body.scrollWidth);
  if (pageWidth > width) {
    faults.push({
      kind: 'page-overflow',
      element: 'html',
      text: '',
      detail: `scrollWidth ${pageWidth} > ${width}`,
    });
  }

  const describe = (el: Element) => {
    const id = el.getAttribute('data-testid');
    const cls =
      typeof el.className === 'string' && el.className.trim()
        ? `.${el.className.trim().split(/\s+/).join('.')}`
        : '';
    return `${el.tagName.toLowerCase()}${id ? `[data-testid=${id}]` : ''}${cls}`;
  };
  const seen = new Set<string>();
  const report = (fault: LayoutFault) => {
    const key = `${fault.kind} ${fault.element} ${fault.text}`;
    if (seen.has(key)) return;
    seen.add(key);
    faults.push(fault);
  };

  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = (node.textContent ?? '').trim();
    const parent = node.parentElement;
    if (!text || !parent) continue;
    if (parent.closest('script, style, noscript, svg, canvas')) continue;
    if (!parent.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;

    let hiddenHelper = false;
    let inScroller = false;
    let fixedOut = false;
    let container: Element | null = null;
    for (let el: Element | null = parent; el && el !== document.documentElement; el = el.parentElement) {
      const style = getComputedStyle(el);
      const rect = el.getBoundingClientRect();
      if (rect.width <= 1 && rect.height <= 1) {
        hiddenHelper = true;
        break;
      }
      if (style.position === 'fixed' && (rect.right <= 0 || rect.left >= width)) fixedOut = true;
      // the box the text is laid out in: the nearest ancestor that is not an inline
      if (!container && !style.display.startsWith('inline') && style.display !== 'contents') {
        container = el;
        if (box.left < rect.left - TOLERANCE || box.right > rect.right + TOLERANCE) {
          report({
            kind: 'spills',
            element: describe(el),
            text: text.slice(0, 60),
            detail: `text ${box.left.toFixed(1)}..${box.right.toFixed(1)} outside ${rect.left.toFixed(1)}..${rect.right.toFixed(1)}`,
          });
        }
      }
      const overflow = style.overflowX;
      if (overflow === 'auto' || overflow === 'scroll') {
        inScroller = true;
        continue;
      }
      if (overflow !== 'visible' || style.textOverflow === 'ellipsis') {
        // the padding box is what a clipping element shows
        const left = rect.left + el.clientLeft;
        const right = left + el.clientWidth;
        if (
          el.scrollWidth > el.clientWidth &&
          (box.left < left - TOLERANCE || box.right > right + TOLERANCE)
        ) {
          report({
            kind: 'clipped',
            element: describe(el),
            text: text.slice(0, 60),
            detail: `scrollWidth ${el.scrollWidth} > clientWidth ${el.clientWidth}`,
          });
        }
      }
    }
    if (hiddenHelper || fixedOut || inScroller) continue;
    if (box.left < -TOLERANCE || box.right > width + TOLERANCE) {
      report({
        kind: 'off-screen',
        element: describe(parent),
        text: text.slice(0, 60),
        detail: `text ${box.left.toFixed(1)}..${box.right.toFixed(1)} of ${width}`,
      });
    }
  }
  return faults;
}
