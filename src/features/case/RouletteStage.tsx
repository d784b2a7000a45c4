import {
  Component,
  Suspense,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
  type RefObject,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Roulette, rouletteConfig, rouletteHeight, type RouletteReel } from '../../../scenes/roulette';
import { hapticSelection } from '../../lib/haptics';
import { playTick } from '../../lib/sound';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function subscribeReducedMotion(onChange: () => void): () => void {
  const query = window.matchMedia?.(REDUCED_MOTION);
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}

/** The player's prefers-reduced-motion setting, live. */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribeReducedMotion,
    () => window.matchMedia?.(REDUCED_MOTION).matches ?? false,
    () => false,
  );
}

/** Width of an element in CSS px, kept up to date. */
function useWidth<T extends HTMLElement>(): [RefObject<T | null>, number] {
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

/** If the scene cannot run here (no graphics, chunk failed to load), the result is still shown. */
class SceneBoundary extends Component<{ onFail: () => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    console.error('Roulette failed', error);
    this.props.onFail();
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/** Longest a spin may take before the win screen shows anyway (a stalled scene must not hold the prize). */
const WATCHDOG_MS = rouletteConfig.durationMs + 20_000;

interface RouletteStageProps {
  /** reels to play; empty while the opening request is out (the scene loads meanwhile) */
  reels: readonly RouletteReel[];
  /** how many reels the stage makes room for */
  count: number;
  /** every reel has landed */
  onDone: () => void;
}

/**
 * The roulette of a normal open: one reel per copy, all spinning at once, with ticks (sound and haptics)
 * as cards cross the marker. Mounted as soon as the player taps Open, so Pixi loads while the server answers.
 */
export function RouletteStage({ reels, count, onDone }: RouletteStageProps) {
  const { t } = useTranslation();
  const [ref, width] = useWidth<HTMLDivElement>();
  const reducedMotion = useReducedMotion();
  const height = rouletteHeight(count);
  const resolution = Math.min(Math.max(window.devicePixelRatio || 1, 1), 2);
  const spinning = reels.length > 0;
  const [failed, setFailed] = useState(false);
  const fail = useCallback(() => setFailed(true), []);

  // without a scene the result still shows, as soon as there is one
  useEffect(() => {
    if (failed && spinning) onDone();
  }, [failed, spinning, onDone]);

  const onTick = useCallback(() => {
    playTick();
    hapticSelection();
  }, []);

  useEffect(() => {
    if (!spinning) return;
    const timer = setTimeout(onDone, WATCHDOG_MS);
    return () => clearTimeout(timer);
  }, [spinning, onDone]);

  return (
    <div
      ref={ref}
      className="roulette-stage"
      style={{ height }}
      data-testid="roulette"
      data-spinning={spinning || undefined}
      role="img"
      aria-label={t('case.roulette')}
    >
      {width > 0 && (
        <SceneBoundary onFail={fail}>
          <Suspense fallback={<div className="roulette-stage__loading" />}>
            <Roulette
              width={width}
              height={height}
              reels={reels}
              reducedMotion={reducedMotion}
              resolution={resolution}
              className="roulette-stage__canvas"
              onTick={onTick}
              onAllSettled={onDone}
            />
          </Suspense>
        </SceneBoundary>
      )}
      <span className="roulette-stage__fade roulette-stage__fade--left" aria-hidden="true" />
      <span className="roulette-stage__fade roulette-stage__fade--right" aria-hidden="true" />
    </div>
  );
}
