import { atom, useAtomValue, useStore, type Atom } from 'jotai';
import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPercent } from '../../lib/format';
import {
  chanceWheelConfig,
  formatChance,
  type ChanceWheelOutcome,
  type ChanceWheelScenePlan,
} from '../../../scenes/chance-wheel';
import { SceneView, useFollowingAtom, type SceneCue } from '../../lib/scene/SceneView';
import { useSceneEvents } from '../../lib/scene/useSceneEvents';
import { useSpinWatchdogControl } from '../../lib/scene/useSpinWatchdog';
import { sceneResolution, useElementWidth, usePrefersReducedMotion } from '../../lib/scene-hooks';

/** The widest the wheel grows, CSS px. */
const MAX_WHEEL_PX = 240;
/** A started roll's length, ms: once it has run this (plus a margin) the result shows anyway. */
const SPIN_MS = chanceWheelConfig.durationMs + chanceWheelConfig.resultDelayMs;

/**
 * What the wheel shows of a roll: set outside React the moment the server answers (or the roll fails, or an
 * unseen roll is shown again), so that the wheel starts turning before the screen renders the answer.
 */
export interface WheelRoll {
  /** a new value starts a new turn of the wheel (when `rolled` is set) */
  spinId: number;
  /** the server's roll; null: no turn (a failed request shows the outcome at rest) */
  rolled: number | null;
  /** the chance the roll was played at */
  chance: number;
  outcome: ChanceWheelOutcome;
}

interface UpgradeWheelProps {
  /** the chance shown at rest, while there is no roll */
  chance: number;
  /** the roll the wheel shows, null at rest */
  roll: Atom<WheelRoll | null>;
  /** the wheel stopped on the roll `spinId` and 0.5 s passed (or it could not run): show the result */
  onResult: (spinId: number) => void;
}

/**
 * The chance as the wheel and the panel show it: percent with 1 decimal (rounded as the scene rounds it), in
 * the interface's locale ("26.0%", "26,0 %").
 */
function chanceLabel(chance: number): string {
  return formatPercent(Number.parseFloat(formatChance(chance)) / 100, 1, true);
}

/**
 * The chance under the wheel: the roll's own while the wheel shows a roll, else the one the player is
 * choosing. It renders again only when the label it shows changes: a roll at the chance already shown (the
 * usual answer) renders nothing.
 */
export const RollChance = memo(function RollChance({
  chance,
  roll,
}: Pick<UpgradeWheelProps, 'chance' | 'roll'>) {
  const store = useStore();
  const label = useSyncExternalStore(
    useCallback((onChange: () => void) => store.sub(roll, onChange), [store, roll]),
    () => chanceLabel(store.get(roll)?.chance ?? chance),
  );
  return <strong data-testid="upgrade-chance">{label}</strong>;
});

/** What the wheel's box says of a roll (`data-rolling`, `data-outcome`, its label), written as the roll comes. */
function describeWheel(element: HTMLElement, shown: WheelRoll | null, label: string): void {
  const rolling = shown !== null && shown.rolled !== null;
  if (rolling) element.dataset.rolling = 'true';
  else delete element.dataset.rolling;
  if (shown) element.dataset.outcome = shown.outcome;
  else delete element.dataset.outcome;
  if (element.getAttribute('aria-label') !== label) element.setAttribute('aria-label', label);
}

/** The wheel drawn as a plain disc when its scene failed: the chance, and the outcome's colour. */
function WheelFallback({ chance, roll }: Pick<UpgradeWheelProps, 'chance' | 'roll'>) {
  const current = useAtomValue(roll);
  return (
    <div className="upgrade-wheel__fallback" data-outcome={current?.outcome ?? undefined}>
      {chanceLabel(current?.chance ?? chance)}
    </div>
  );
}

/**
 * The result panel's chance wheel (spec §4): the chance in the centre as percent with 1 decimal, a 5 s roll
 * to the server's answer, green on success, red on failure, blue while neutral. Ticks click and buzz.
 *
 * The server's answer renders nothing here: the roll reaches the scene through its cue atom, and the box's
 * attributes, the spin's watchdog and a failed scene's result follow the roll atom by subscription.
 */
export const UpgradeWheel = memo(function UpgradeWheel({ chance, roll, onResult }: UpgradeWheelProps) {
  const { t } = useTranslation();
  const store = useStore();
  const [ref, width] = useElementWidth<HTMLDivElement>();
  // a roll started with reduced motion on is short
  const reducedMotion = usePrefersReducedMotion();
  const size = Math.min(width, MAX_WHEEL_PX);
  const resolution = sceneResolution();
  const [failed, setFailed] = useState(false);

  // one result per roll, whichever of the wheel, the fallback and the watchdog says so first
  const resultFor = useRef<number | null>(null);
  const finish = useCallback(() => {
    const spinId = store.get(roll)?.spinId ?? null;
    if (spinId === null || resultFor.current === spinId) return;
    resultFor.current = spinId;
    onResult(spinId);
  }, [store, roll, onResult]);

  // a stalled wheel must not hold the result; counted from when the wheel really starts, not from the request
  const watchdog = useSpinWatchdogControl(SPIN_MS, finish);
  useLayoutEffect(() => {
    const element = ref.current;
    const follow = () => {
      const shown = store.get(roll);
      const rolling = shown !== null && shown.rolled !== null;
      if (element)
        describeWheel(element, shown, t('upgrade.wheel', { chance: chanceLabel(shown?.chance ?? chance) }));
      // a wheel that cannot turn tells the result at once
      if (rolling && failed) finish();
      watchdog.setActive(rolling && !failed);
    };
    follow();
    return store.sub(roll, follow);
  }, [store, roll, ref, t, chance, failed, finish, watchdog]);

  // the plan follows the roll atom directly (the wheel turns when the answer sets it) and the resting
  // chance from render; a new resting chance prepares the wheel again, it never replays a roll
  const resting = useFollowingAtom(chance);
  const motion = useFollowingAtom(reducedMotion);
  const cue = useMemo(
    () =>
      atom((get): SceneCue<ChanceWheelScenePlan> => {
        const shown = get(roll);
        const at = shown?.chance ?? get(resting);
        return {
          plan: {
            chance: at,
            label: chanceLabel(at),
            rolled: shown?.rolled ?? null,
            outcome: shown?.outcome ?? null,
            reducedMotion: get(motion),
          },
          play: shown && shown.rolled !== null ? shown.spinId : null,
        };
      }),
    [roll, resting, motion],
  );
  const onEvents = useSceneEvents({
    label: 'Chance wheel',
    ticks: true,
    started: watchdog.started,
    settled: finish,
    failed: () => setFailed(true),
  });

  return (
    <div
      ref={ref}
      className="upgrade-wheel"
      data-testid="upgrade-wheel"
      role="img"
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
      {failed && <WheelFallback chance={chance} roll={roll} />}
    </div>
  );
});
