import { atom, useAtomValue, useStore } from 'jotai';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { WheelSegment, WheelSpinResponse, WheelStateResponse } from '../../../contract/retention.ts';
import {
  bonusWheelConfig,
  pickSpin,
  type BonusSegment,
  type BonusSpin,
  type BonusWheelScenePlan,
} from '../../../scenes/bonus-wheel';
import { apiErrorText } from '../../lib/api-error';
import { formatTon } from '../../lib/format';
import { hapticImpact, hapticNotification } from '../../lib/haptics';
import { useElementWidth, usePrefersReducedMotion, sceneResolution } from '../../lib/scene-hooks';
import { playWinSound, preloadSounds } from '../../lib/sound';
import { afterTap } from '../../lib/ui/after-tap';
import { ArtImage } from '../../lib/ui/ArtImage';
import { usePress } from '../../lib/ui/press';
import { SceneView, useFollowingAtom, type SceneCue } from '../../lib/scene/SceneView';
import { useSceneEvents } from '../../lib/scene/useSceneEvents';
import { useSpinWatchdog } from '../../lib/scene/useSpinWatchdog';
import { afterSpin, spinWheel, wheelAtom } from './api';
import { holdBalance } from '../../state/live';
import { BONUS_WORD, LETTERS_COLLECTED } from './prizes';
import './bonus.css';

/** A spin the wheel plays: its turns, and the answer it shows once landed. */
interface Spin {
  id: number;
  spin: BonusSpin;
  answer: WheelSpinResponse;
}

/** Largest wheel, px: on a wide screen the wheel stops growing. */
const MAX_WHEEL = 340;
/** A started spin's length, ms: once it has run this (plus a margin) the wheel unlocks anyway. */
const SPIN_MS = bonusWheelConfig.durationMs;

/** The art of a segment: the case for a case prize, a TON pile growing with the amount. */
function segmentArt(segment: WheelSegment): string | undefined {
  if (segment.case) return segment.case.imageUrl;
  if (segment.kind !== 'ton' || segment.amount === null) return undefined;
  const amount = Number(segment.amount);
  const art = amount >= 2 ? 'ton_chest' : amount >= 0.5 ? 'ton_stack' : 'ton_balance';
  return `/assets/items/${art}.svg`;
}

/** "h:mm:ss" until `end` (ISO), counted on the server's clock (`serverNow` was its time at the answer). */
function useCountdown(end: string | null, serverNow: string | null): string | null {
  const [left, setLeft] = useState<{ end: string; ms: number } | null>(null);
  useEffect(() => {
    if (!end || !serverNow) return;
    const offset = Date.parse(serverNow) - Date.now();
    const tick = () => setLeft({ end, ms: Math.max(0, Date.parse(end) - (Date.now() + offset)) });
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, 1000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [end, serverNow]);
  if (!end || left?.end !== end) return null;
  const s = Math.ceil(left.ms / 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/**
 * The daily bonus wheel (/wheel and /bonus). The server rolls the spin (provably fair, one free spin per
 * 24 h plus spins won as rank rewards) and pays the prize; the wheel then turns 5 to 7 full turns and lands
 * on the server's segment, and the screen says what it paid. Before the next spin a countdown shows.
 */
export function BonusWheelPage() {
  const { t } = useTranslation();
  const [stageRef, width] = useElementWidth<HTMLDivElement>();
  const size = Math.min(width, MAX_WHEEL);
  const reducedMotion = usePrefersReducedMotion();
  const wheel = useAtomValue(wheelAtom);
  const state = wheel.data;
  // the spin shown as landed (its answer's prize); the spin the wheel is turning is in wheelSpin below
  const [spin, setSpin] = useState<Spin | null>(null);
  // 'asking' from the tap until the wheel lands: the answer starts the wheel without a render of this screen
  // (nothing here changes for the player before the landing)
  const [phase, setPhase] = useState<'idle' | 'asking' | 'landed'>('idle');
  const [error, setError] = useState<string | null>(null);
  // one tap, one spin: a second tap before the answer is ignored synchronously
  const busy = useRef(false);
  // the balance hold taken at the tap (released when the wheel lands, the spin fails or the screen goes)
  const releaseBalance = useRef<() => void>(() => undefined);
  useEffect(() => () => releaseBalance.current(), []);

  useEffect(() => preloadSounds(), []);

  const countdown = useCountdown(state && !state.available ? state.nextSpinAt : null, state?.now ?? null);
  // the countdown reached zero: ask again whether the spin is ready
  useEffect(() => {
    if (countdown === '0:00:00') void wheel.refetch();
  }, [countdown, wheel]);

  const segments = useMemo<BonusSegment[]>(
    () =>
      (state?.segments ?? []).map((segment) => ({
        id: String(segment.segment),
        label:
          segment.kind === 'ton'
            ? t('bonus.tonPrize', { amount: formatTon(segment.amount!, 0) })
            : segment.kind === 'case'
              ? (segment.case?.name ?? '')
              : t('retention.wheel.nothing'),
        imageUrl: segmentArt(segment),
      })),
    // labels are baked into the wheel's face: a new language (a new t), a new face
    [t, state?.segments],
  );

  // the spin the wheel plays: set from the answer itself, so the wheel turns before the screen re-renders
  const store = useStore();
  const [wheelSpin] = useState(() => atom<Spin | null>(null));
  // the last spin shown as landed
  const landedId = useRef(0);

  const start = async () => {
    if (busy.current || !state?.available) return;
    busy.current = true;
    // the prize's balance push may come before the wheel starts: the header holds still until it lands
    releaseBalance.current();
    releaseBalance.current = holdBalance();
    // the request leaves first; the screen's re-render follows in the tap's next frame (see afterTap)
    const request = spinWheel();
    hapticImpact('light');
    const asked = afterTap(() => {
      setError(null);
      setPhase('asking');
    });
    try {
      const answer = await request;
      const turns = pickSpin(Math.random);
      const next: Spin = {
        id: (store.get(wheelSpin)?.id ?? 0) + 1,
        spin: { ...turns, segment: answer.segment },
        answer,
      };
      // the wheel turns now; the screen shows nothing new until it lands
      store.set(wheelSpin, next);
    } catch (failure) {
      asked();
      setError(apiErrorText(failure));
      setPhase('idle');
      busy.current = false;
      releaseBalance.current();
      hapticNotification('error');
      void wheel.refetch();
    }
  };

  // the request leaves at the tap's release, not its click (see usePress)
  const spinPress = usePress(() => void start());

  const land = useCallback(() => {
    const landed = store.get(wheelSpin);
    // only a spin under way lands (a watchdog or a settle after an error does nothing)
    if (!busy.current || !landed || landed.id === landedId.current) return;
    landedId.current = landed.id;
    setSpin(landed);
    setPhase('landed');
    busy.current = false;
  }, [store, wheelSpin]);

  // once landed, the money and the item show (never before the wheel tells)
  useEffect(() => {
    if (phase !== 'landed' || !spin) return;
    afterSpin(spin.answer);
    releaseBalance.current();
    if (spin.answer.prize.kind !== 'none') {
      playWinSound(spin.answer.prize.kind === 'case' ? 2 : 1);
      hapticNotification('success');
    }
  }, [phase, spin]);

  // a stalled scene must not lock the screen; counted from when the wheel really starts, not from the tap
  const started = useSpinWatchdog(phase === 'asking', SPIN_MS, land);

  // the plan follows the spin atom directly and the face from render: a new face (a new language) is
  // prepared again, it never replays a spin
  const faces = useFollowingAtom(segments);
  const motion = useFollowingAtom(reducedMotion);
  const cue = useMemo(
    () =>
      atom((get): SceneCue<BonusWheelScenePlan> => {
        const playing = get(wheelSpin);
        return {
          plan: { segments: get(faces), spin: playing?.spin ?? null, reducedMotion: get(motion) },
          play: playing ? playing.id : null,
        };
      }),
    [wheelSpin, faces, motion],
  );
  const onEvents = useSceneEvents({
    label: 'Bonus wheel',
    ticks: true,
    started,
    settled: () => {
      hapticImpact('medium');
      land();
    },
    failed: land,
  });

  const spinning = phase === 'asking';
  const result = phase === 'landed' ? spin?.answer : null;

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
          data-segment={result?.segment}
          role="img"
          aria-label={t('bonus.wheelLabel')}
        >
          {size > 0 && segments.length > 0 && (
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

      {result && <WheelResult answer={result} />}

      <button
        type="button"
        className="button bonus__spin"
        {...spinPress}
        disabled={spinning || !state?.available}
        aria-busy={spinning || undefined}
        data-testid="bonus-spin"
      >
        {spinning ? t('bonus.spinning') : spin ? t('bonus.spin') : t('retention.wheel.spin')}
      </button>
      {/* while the wheel turns the status keeps its lines, unseen: what follows does not move up under the
          tap (a layout of the whole page and a repaint of everything below, on the tap's frame) */}
      <p
        className="bonus__status"
        data-testid="wheel-status"
        data-spinning={spinning || undefined}
        aria-live="polite"
      >
        {error ? (
          <span className="bonus__error" role="alert">
            {error}
          </span>
        ) : wheel.isError ? (
          t('retention.wheel.loadError')
        ) : state ? (
          <>
            {state.available
              ? t('retention.wheel.ready')
              : countdown && (
                  <span data-testid="wheel-countdown">
                    {t('retention.wheel.nextIn', { time: countdown })}
                  </span>
                )}
            {state.extraSpins > 0 && (
              <span className="bonus__extra" data-testid="wheel-extra">
                {t('retention.wheel.extraSpins', { count: state.extraSpins })}
              </span>
            )}
          </>
        ) : null}
      </p>

      <BonusLetters />
      <PrizeGrid segments={state?.segments} labels={segments} />
    </section>
  );
}

/** The bonus letters collected (static while the wheel turns: not rendered again with it). */
const BonusLetters = memo(function BonusLetters() {
  const { t } = useTranslation();
  return (
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
  );
});

/** The prize table: rendered again only when the prizes or their labels change, not with the spin. */
const PrizeGrid = memo(function PrizeGrid({
  segments,
  labels,
}: {
  segments: WheelStateResponse['segments'] | undefined;
  labels: readonly BonusSegment[];
}) {
  const { t } = useTranslation();
  return (
    <section className="bonus__prizes" aria-labelledby="bonus-prizes-title">
      <h2 id="bonus-prizes-title" className="bonus__section-title">
        {t('bonus.prizes')}
      </h2>
      <ul className="bonus__grid" data-testid="bonus-prizes">
        {segments?.map((segment, i) => (
          <li key={segment.segment} className="bonus__prize">
            <span className="bonus__prize-art">
              {segmentArt(segment) && <ArtImage src={segmentArt(segment)!} className="bonus__prize-img" />}
            </span>
            <span className="bonus__prize-name">{labels[i]?.label}</span>
            <span className="bonus__prize-price">
              {t('retention.wheel.chance', {
                chance: (Math.round(segment.chance * 1000) / 10).toLocaleString(),
              })}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
});

/** What the spin paid, once the wheel has landed on it. */
function WheelResult({ answer }: { answer: WheelSpinResponse }) {
  const { t } = useTranslation();
  const { prize } = answer;
  return (
    <div className="bonus__result" data-testid="wheel-result" data-kind={prize.kind} role="status">
      {prize.item && <ArtImage src={prize.item.imageUrl} className="bonus__result-img" />}
      <div className="bonus__result-text">
        <strong>
          {prize.kind === 'ton'
            ? t('retention.wheel.wonTon', { amount: formatTon(prize.amount!) })
            : prize.kind === 'case'
              ? t('retention.wheel.wonCase', { case: prize.case?.name ?? '', item: prize.item?.name ?? '' })
              : t('retention.wheel.wonNone')}
        </strong>
        {prize.kind !== 'none' && (
          <span>
            {prize.kind === 'ton' ? t('retention.wheel.credited') : t('retention.wheel.toInventory')}
          </span>
        )}
      </div>
      <Link to={`/verify/${answer.betId}`} className="bonus__proof" data-testid="wheel-proof">
        {t('retention.wheel.proof')}
      </Link>
    </div>
  );
}
