import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  bonusWheelConfig,
  pickSpin,
  type BonusSegment,
  type BonusSpin,
  type BonusWheelScenePlan,
} from '../../../scenes/bonus-wheel';
import { formatTon } from '../../lib/format';
import { hapticImpact } from '../../lib/haptics';
import { useElementWidth, usePrefersReducedMotion, sceneResolution } from '../../lib/scene-hooks';
import { preloadSounds } from '../../lib/sound';
import { ArtImage } from '../../lib/ui/ArtImage';
import { SceneView, useSceneCue } from '../../lib/scene/SceneView';
import { useSceneEvents } from '../../lib/scene/useSceneEvents';
import { useSpinWatchdog } from '../../lib/scene/useSpinWatchdog';
import { TonIcon } from '../../lib/ui/TonIcon';
import { BONUS_WORD, LETTERS_COLLECTED, PRIZE_GRID, WHEEL_PRIZES } from './prizes';
import './bonus.css';

/** Largest wheel, px: on a wide screen the wheel stops growing. */
const MAX_WHEEL = 340;
/** A started spin's length, ms: once it has run this (plus a margin) the wheel unlocks anyway. */
const SPIN_MS = bonusWheelConfig.durationMs;

/**
 * The bonus wheel (/wheel and /bonus), a client-side demonstration (spec §2, §4): 'Spin again' spins the
 * 12-segment wheel for 3 s, 5 to 7 full turns plus a random segment chosen here (pickSpin(Math.random)).
 * No prize is credited and no result is shown.
 */
export function BonusWheelPage() {
  const { t } = useTranslation();
  const [stageRef, width] = useElementWidth<HTMLDivElement>();
  const size = Math.min(width, MAX_WHEEL);
  const reducedMotion = usePrefersReducedMotion();
  const [spin, setSpin] = useState<{ id: number; spin: BonusSpin } | null>(null);
  const [spinning, setSpinning] = useState(false);

  useEffect(() => preloadSounds(), []);

  const segments = useMemo<BonusSegment[]>(
    () =>
      WHEEL_PRIZES.map((prize) => ({
        id: prize.id,
        label:
          prize.ton !== undefined
            ? t('bonus.tonPrize', { amount: formatTon(prize.ton, 0) })
            : t(`bonus.items.${prize.item!}`),
        imageUrl: prize.imageUrl,
      })),
    // labels are baked into the wheel's face: a new language (a new t), a new face
    [t],
  );

  const start = () => {
    if (spinning) return;
    hapticImpact('light');
    setSpin((current) => ({ id: (current?.id ?? 0) + 1, spin: pickSpin(Math.random) }));
    setSpinning(true);
  };
  const stop = useCallback(() => setSpinning(false), []);

  // a stalled scene must not lock the screen; counted from when the wheel really starts, not from the tap
  const started = useSpinWatchdog(spinning, SPIN_MS, stop);

  const plan = useMemo<BonusWheelScenePlan>(
    () => ({ segments, spin: spin?.spin ?? null, reducedMotion }),
    [segments, spin, reducedMotion],
  );
  const cue = useSceneCue(plan, spin ? spin.id : null);
  const onEvents = useSceneEvents({
    label: 'Bonus wheel',
    ticks: true,
    started,
    settled: () => {
      hapticImpact('medium');
      stop();
    },
    failed: stop,
  });

  return (
    <section className="screen bonus" data-testid="bonus-page">
      <header className="bonus__head">
        <h1 className="screen__title">{t('bonus.title')}</h1>
        <p className="bonus__subtitle">{t('bonus.subtitle')}</p>
      </header>

      <div ref={stageRef} className="bonus__stage">
        <div
          className="bonus__wheel"
          style={{ width: size || undefined, height: size || undefined }}
          data-testid="bonus-wheel"
          data-spinning={spinning || undefined}
          role="img"
          aria-label={t('bonus.wheelLabel')}
        >
          {size > 0 && (
            <SceneView
              scene="bonus-wheel"
              cue={cue}
              width={size}
              height={size}
              dpr={sceneResolution()}
              className="bonus__canvas"
              onEvents={onEvents}
            />
          )}
        </div>
      </div>

      <button
        type="button"
        className="button bonus__spin"
        onClick={start}
        disabled={spinning}
        aria-busy={spinning || undefined}
        data-testid="bonus-spin"
      >
        {spinning ? t('bonus.spinning') : t('bonus.spin')}
      </button>

      <section className="bonus__card" aria-labelledby="bonus-letters-title">
        <div className="bonus__card-head">
          <h2 id="bonus-letters-title" className="bonus__card-title">
            {t('bonus.lettersTitle')}
          </h2>
          <span className="bonus__count">
            {t('bonus.lettersLabel', { count: LETTERS_COLLECTED, total: BONUS_WORD.length })}
          </span>
        </div>
        <ol className="bonus__letters" data-testid="bonus-letters">
          {BONUS_WORD.map((letter, i) => (
            <li key={i} className="bonus__letter" data-active={i < LETTERS_COLLECTED || undefined}>
              {letter}
            </li>
          ))}
        </ol>
      </section>

      <section className="bonus__prizes" aria-labelledby="bonus-prizes-title">
        <h2 id="bonus-prizes-title" className="bonus__section-title">
          {t('bonus.prizes')}
        </h2>
        <ul className="bonus__grid" data-testid="bonus-prizes">
          {PRIZE_GRID.map((prize) => (
            <li key={prize.item} className="bonus__prize">
              <span className="bonus__prize-art">
                <ArtImage src={prize.imageUrl} className="bonus__prize-img" />
              </span>
              <span className="bonus__prize-name">{t(`bonus.items.${prize.item}`)}</span>
              <span className="bonus__prize-price">
                <TonIcon size={13} />
                {formatTon(prize.price, 1)}
              </span>
            </li>
          ))}
        </ul>
        <p className="bonus__note">{t('bonus.demoNote')}</p>
      </section>
    </section>
  );
}
