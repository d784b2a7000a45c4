import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ChanceWheel,
  chanceWheelConfig,
  formatChance,
  type ChanceWheelOutcome,
} from '../../../scenes/chance-wheel';
import { hapticSelection } from '../../lib/haptics';
import { sceneResolution, useElementWidth, usePrefersReducedMotion } from '../../lib/scene-hooks';
import { playTick } from '../../lib/sound';
import { SceneBoundary } from '../../lib/ui/SceneBoundary';

/** The widest the wheel grows, CSS px. */
const MAX_WHEEL_PX = 240;
/** Longest a roll may take before the result shows anyway (a stalled scene must not hold the result). */
const WATCHDOG_MS = chanceWheelConfig.durationMs + chanceWheelConfig.resultDelayMs + 10_000;

interface UpgradeWheelProps {
  chance: number;
  /** the server's roll while the wheel shows it, else null */
  rolled: number | null;
  spinId: number;
  outcome: ChanceWheelOutcome | null;
  /** the wheel stopped on the roll and 0.5 s passed (or it could not run): show the result */
  onResult: () => void;
}

/**
 * The result panel's chance wheel (spec §4): the chance in the centre as percent with 1 decimal, a 5 s roll
 * to the server's answer, green on success, red on failure, blue while neutral. Ticks click and buzz.
 */
export function UpgradeWheel({ chance, rolled, spinId, outcome, onResult }: UpgradeWheelProps) {
  const { t } = useTranslation();
  const [ref, width] = useElementWidth<HTMLDivElement>();
  // a roll started with reduced motion on is short
  const reducedMotion = usePrefersReducedMotion();
  const size = Math.min(width, MAX_WHEEL_PX);
  const resolution = sceneResolution();
  const [failed, setFailed] = useState(false);
  const fail = useCallback(() => setFailed(true), []);
  const label = formatChance(chance);
  const rolling = rolled !== null;

  // one result per roll, whichever of the wheel, the fallback and the watchdog says so first
  const resultFor = useRef<number | null>(null);
  const finish = useCallback(() => {
    if (resultFor.current === spinId) return;
    resultFor.current = spinId;
    onResult();
  }, [spinId, onResult]);

  useEffect(() => {
    if (!rolling) return;
    if (failed) {
      finish();
      return;
    }
    const timer = setTimeout(finish, WATCHDOG_MS);
    return () => clearTimeout(timer);
  }, [rolling, failed, finish]);

  const onTick = useCallback(() => {
    playTick();
    hapticSelection();
  }, []);

  return (
    <div
      ref={ref}
      className="upgrade-wheel"
      data-testid="upgrade-wheel"
      data-rolling={rolling || undefined}
      data-outcome={outcome ?? undefined}
      role="img"
      aria-label={t('upgrade.wheel', { chance: label })}
      style={{ height: size || MAX_WHEEL_PX }}
    >
      {size > 0 && !failed && (
        <SceneBoundary name="Chance wheel" onFail={fail}>
          <Suspense
            fallback={<div className="upgrade-wheel__loading" style={{ width: size, height: size }} />}
          >
            <ChanceWheel
              size={size}
              chance={chance}
              label={label}
              rolled={rolled}
              spinId={spinId}
              outcome={outcome}
              reducedMotion={reducedMotion}
              resolution={resolution}
              className="upgrade-wheel__canvas"
              onTick={onTick}
              onResult={finish}
            />
          </Suspense>
        </SceneBoundary>
      )}
      {failed && (
        <div className="upgrade-wheel__fallback" data-outcome={outcome ?? undefined}>
          {label}
        </div>
      )}
    </div>
  );
}
