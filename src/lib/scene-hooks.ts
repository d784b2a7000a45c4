import { useLayoutEffect, useRef, useState, useSyncExternalStore, type RefObject } from 'react';

/** Small helpers for screens that host a scene: its size, the player's motion preference, the pixel ratio. */

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/**
 * The media query, made once: React reads the snapshot on every render of a scene's screen (a phase edge
 * included), and a matchMedia call each time was a measurable part of that render on a slow phone.
 */
let reducedMotionQuery: MediaQueryList | null | undefined;
function reducedMotion(): MediaQueryList | null {
  if (reducedMotionQuery === undefined) reducedMotionQuery = window.matchMedia?.(REDUCED_MOTION) ?? null;
  return reducedMotionQuery;
}

function subscribeReducedMotion(onChange: () => void): () => void {
  const query = reducedMotion();
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}

/** The player's prefers-reduced-motion setting, live. */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribeReducedMotion,
    () => reducedMotion()?.matches ?? false,
    () => false,
  );
}

/** Width of an element in whole CSS px (0 until measured), kept up to date. */
export function useElementWidth<T extends HTMLElement>(): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(Math.floor(element.getBoundingClientRect().width));
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/** The device pixel ratio a scene renders at: 1 to 2 (sharper costs more than it shows on a phone). */
export function sceneResolution(): number {
  return Math.min(Math.max(window.devicePixelRatio || 1, 1), 2);
}
