import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPercent } from '../../lib/format';
import {
  chanceWheelConfig,
  formatChance,
  type ChanceWheelOutcome,
  type ChanceWheelScenePlan,
} from '../../../scenes/chance-wheel';
import { SceneView, useSceneCue } from '../../lib/scene/SceneView';
import { useSceneEvents } from '../../lib/scene/useSceneEvents';
import { useSpinWatchdog } from '../../lib/scene/useSpinWatchdog';
import { sceneResolution, useElementWidth, usePrefersReducedMotion } from '../../lib/scene-hooks';

/** The widest the wheel grows, CSS px. */
const MAX_WHEEL_PX = 240;
/** A started roll's length, ms: once it has run this (plus a margin) the result shows anyway. */
const SPIN_MS = chanceWheelConfig.durationMs + chanceWheelConfig.resultDelayMs;

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
 * The chance as the wheel and the panel show it: percent with 1 decimal (rounded as the scene rounds it), in
 * the interface's locale ("26.0%", "26,0 %").
 */
export function chanceLabel(chance: number): string {
  return formatPercent(Number.parseFloat(formatChance(chance)) / 100, 1, true);
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
  const label = chanceLabel(chance);
  const rolling = rolled !== null;

  // one result per roll, whichever of the wheel, the fallback and the watchdog says so first
  const resultFor = useRef<number | null>(null);
  const finish = useCallback(() => {
    if (resultFor.current === spinId) return;
    resultFor.current = spinId;
    onResult();
  }, [spinId, onResult]);

  useEffect(() => {
    if (rolling && failed) finish();
  }, [rolling, failed, finish]);
  // a stalled wheel must not hold the result; counted from when the wheel really starts, not from the request
  const started = useSpinWatchdog(rolling && !failed, SPIN_MS, finish);

  const plan = useMemo<ChanceWheelScenePlan>(
    () => ({ chance, label, rolled, outcome, reducedMotion }),
    [chance, label, rolled, outcome, reducedMotion],
  );
  const cue = useSceneCue(plan, rolling ? spinId : null);
  const onEvents = useSceneEvents({
    label: 'Chance wheel',
    ticks: true,
    started,
    settled: finish,
    failed: () => setFailed(true),
  });

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
        <SceneView
          scene="chance-wheel"
          cue={cue}
          width={size}
          height={size}
          dpr={resolution}
          className="upgrade-wheel__canvas"
          onEvents={onEvents}
        />
      )}
      {failed && (
        <div className="upgrade-wheel__fallback" data-outcome={outcome ?? undefined}>
          {label}
        </div>
      )}
    </div>
  );
}
