import { useAtomValue, type Atom } from 'jotai';
import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import type { Case } from '../../../contract/cases.ts';
import type { RouletteItem, RouletteReel } from '../../../scenes/roulette';
import { apiErrorBody, errorStatus } from '../../api';
import { formatTon } from '../../lib/format';
import { sceneArtUrl } from '../../lib/scene/art';
import { hapticSelection } from '../../lib/haptics';
import { useSoundMuted } from '../../lib/sound';
import { ArtImage } from '../../lib/ui/ArtImage';
import { usePress } from '../../lib/ui/press';
import { QueryState } from '../../lib/ui/QueryState';
import { TonIcon } from '../../lib/ui/TonIcon';
import { caseAtom } from '../../state/cases';
import { balanceValueAtom, meAtom } from '../../state/queries';
import { DropFeed } from '../feed/DropFeed';
import { CaseItems } from './CaseItems';
import { COUNTS, canAfford, rouletteItems, totalPrice, type OpenCount } from './model';
import { RouletteStage } from './RouletteStage';
import { useCatalogueTexts } from '../../state/catalogue-texts';
import { useCaseOpening, type CaseOpening } from './useCaseOpening';
import { WinScreen } from './WinScreen';
import './case.css';

/** The feed and the item list do not change with the opening's phase: they are not rendered again for it. */
const StillDropFeed = memo(DropFeed);
const StillCaseItems = memo(CaseItems);

/** Where the deposit button leads (the profile with the deposit sheet open). */
const DEPOSIT_PATH = '/deposit';

function SoundToggle() {
  const { t } = useTranslation();
  const [muted, setMuted] = useSoundMuted();
  return (
    <button
      type="button"
      className="case-sound"
      aria-pressed={muted}
      aria-label={muted ? t('case.soundOff') : t('case.soundOn')}
      data-testid="sound-toggle"
      onClick={() => setMuted(!muted)}
    >
      <svg width="20" height="20" viewBox="0 0 24 24" fill="none" aria-hidden="true" focusable="false">
        <path d="M4 9.5h3.5L12 5.5v13l-4.5-4H4z" fill="currentColor" />
        {muted ? (
          <path d="m16 9.5 5 5m0-5-5 5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        ) : (
          <path
            d="M15.5 9a4 4 0 0 1 0 6M18 6.5a7.5 7.5 0 0 1 0 11"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
          />
        )}
      </svg>
    </button>
  );
}

function BoltIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M13.5 2 4 14h7l-1.5 8L20 10h-7z" fill="currentColor" />
    </svg>
  );
}

/**
 * The case art, or the roulette while a normal open runs. Its props change at the tap and when the win
 * screen closes, not when the answer comes: the reels start from the reels atom, not from a render here.
 */
const CaseHero = memo(function CaseHero({
  imageUrl,
  pieces,
  reels,
  trackSeeds,
  count,
  showStage,
  hasItems,
  onDone,
}: {
  imageUrl: string;
  pieces: readonly RouletteItem[];
  reels: Atom<readonly RouletteReel[]>;
  trackSeeds: Atom<readonly string[]>;
  count: number;
  showStage: boolean;
  hasItems: boolean;
  onDone: () => void;
}) {
  return (
    <div className="case-hero" data-stage={showStage || undefined}>
      {!showStage && (
        <div className="case-hero__art">
          <span className="case-hero__halo" aria-hidden="true" />
          <ArtImage src={imageUrl} />
        </div>
      )}
      {hasItems && (
        <RouletteStage
          pieces={pieces}
          reels={reels}
          trackSeeds={trackSeeds}
          count={count}
          shown={showStage}
          onDone={onDone}
        />
      )}
    </div>
  );
});

/** The case's name, price and description, and the sound switch: nothing here changes with an opening. */
const CaseHead = memo(function CaseHead({ box }: { box: Case }) {
  const texts = useCatalogueTexts();
  const description = texts.caseDescription(box);
  return (
    <>
      <div className="case-head">
        <h1 className="screen__title case-head__name" data-testid="case-name">
          {texts.caseName(box)}
        </h1>
        <span className="case-head__price" data-testid="case-price">
          <TonIcon size={16} />
          {formatTon(box.price, 2)}
        </span>
        <SoundToggle />
      </div>
      {description && <p className="case-head__description">{description}</p>}
    </>
  );
});

interface CaseControlsProps {
  box: Case;
  count: OpenCount;
  onCount: (count: OpenCount) => void;
  phase: CaseOpening['state']['phase'];
  mode: CaseOpening['state']['mode'];
  onOpen: () => void;
  onQuickOpen: () => void;
}

/**
 * x1 / x2 / x3: rendered again only when the count or whether it may change does, not when an opening's
 * answer turns "Opening…" into "Spinning…" (each label is a plural lookup, on the main thread as the reels
 * start).
 */
const CountOptions = memo(function CountOptions({
  count,
  busy,
  onCount,
}: {
  count: OpenCount;
  busy: boolean;
  onCount: (count: OpenCount) => void;
}) {
  const { t } = useTranslation();
  // the labels are plural lookups: made once per language, not again when a tap holds the buttons
  const labels = useMemo(() => COUNTS.map((n) => t('case.count', { count: n })), [t]);
  return (
    <div className="case-count" role="group" aria-label={t('case.countLabel')}>
      {COUNTS.map((n, i) => (
        <button
          key={n}
          type="button"
          className="case-count__option"
          aria-pressed={count === n}
          data-testid={`count-x${n}`}
          disabled={busy}
          onClick={() => {
            if (n === count) return;
            hapticSelection();
            onCount(n);
          }}
        >
          {labels[i]}
        </button>
      ))}
    </div>
  );
});

/** The Open button label's pulse while an opening's request is out: its opacity, 0.7 s each way. */
const PULSE_KEYFRAMES: Keyframe[] = [{ opacity: 1 }, { opacity: 0.3 }];
const PULSE_TIMING: KeyframeAnimationOptions = {
  duration: 700,
  easing: 'ease-in-out',
  iterations: Infinity,
  direction: 'alternate',
};

/**
 * Pulses the element the returned ref names while `active`. A Web Animation, not a CSS one: the browser
 * wakes the page's main thread at every iteration of a CSS animation the compositor runs (the page listens
 * for animationiteration: React does, at its root), and the wake-up due when the request's answer stops
 * the pulse still comes, a frame of style and a commit in the middle of the spin. A Web Animation has no
 * iteration events, so it asks for none.
 */
function usePulse<E extends HTMLElement>(active: boolean) {
  const ref = useRef<E>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!active || !element || typeof element.animate !== 'function') return;
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
    const pulse = element.animate(PULSE_KEYFRAMES, PULSE_TIMING);
    return () => pulse.cancel();
  }, [active]);
  return ref;
}

/**
 * The count and the opening buttons (or what is missing to afford them). The balance is read here, so a
 * new balance (the opening's answer, a poll that brings a change) renders these controls, not the page.
 */
function CaseControls({ box, count, onCount, phase, mode, onOpen, onQuickOpen }: CaseControlsProps) {
  // the request leaves at the tap's release, not its click (see usePress)
  const openPress = usePress(onOpen);
  const quickPress = usePress(onQuickOpen);
  const { t } = useTranslation();
  const navigate = useNavigate();
  const balance = useAtomValue(balanceValueAtom);
  const { data: me } = useAtomValue(meAtom);
  const shownBalance = balance ?? me?.balance;
  const busy = phase !== 'idle';
  const hasItems = box.items.length > 0;
  const total = totalPrice(box.price, count);
  const affordable = canAfford(shownBalance, box.price, count);
  const labelRef = usePulse<HTMLSpanElement>(busy && mode === 'normal' && phase === 'opening');

  return (
    <div className="case-controls">
      <CountOptions count={count} busy={busy} onCount={onCount} />

      {!box.isActive ? (
        <p className="case-notice" data-testid="case-unavailable">
          {t('case.unavailable')}
        </p>
      ) : shownBalance === undefined ? (
        <div className="case-actions" aria-hidden="true">
          <span className="skeleton case-actions__skeleton" />
        </div>
      ) : affordable || busy ? (
        <div className="case-actions">
          <button
            type="button"
            className="open-button"
            data-testid="open-button"
            disabled={busy || !hasItems}
            {...openPress}
          >
            <span className="open-button__label" ref={labelRef}>
              {busy && mode === 'normal'
                ? phase === 'spinning'
                  ? t('case.spinning')
                  : t('case.opening')
                : t('case.open')}
            </span>
            <span className="open-button__price">
              <TonIcon size={16} />
              {formatTon(total, 2)}
            </span>
          </button>
          <button
            type="button"
            className="quick-button"
            data-testid="quick-open-button"
            disabled={busy || !hasItems}
            aria-busy={(busy && mode === 'quick') || undefined}
            {...quickPress}
          >
            <BoltIcon />
            {/* the label stays while the request is out (it pulses): a longer one would not fit beside Open */}
            <span className="quick-button__label">{t('case.quickOpen')}</span>
          </button>
        </div>
      ) : (
        <div className="not-enough" data-testid="not-enough-funds" role="status">
          <div className="not-enough__text">
            <strong>{t('case.notEnough')}</strong>
            <span>{t('case.notEnoughText', { amount: formatTon(total, 2) })}</span>
          </div>
          <button
            type="button"
            className="button"
            data-testid="deposit-button"
            onClick={() => void navigate(DEPOSIT_PATH)}
          >
            {t('case.deposit')}
          </button>
        </div>
      )}
    </div>
  );
}

/**
 * The case page with its opening. A phase change renders this component and the controls; the hero, the
 * head, the feed and the item list are memoized and keep their props through a spin.
 */
function CaseOpenScreen({ box }: { box: Case }) {
  const { t } = useTranslation();
  const [count, setCount] = useState<OpenCount>(1);
  const opening = useCaseOpening(box.id, box.price, t('case.openError'));
  const { phase, mode, results, closing } = opening.state;
  const texts = useCatalogueTexts();
  // the items with their names in the interface language (the list, and the roulette's cards)
  const items = useMemo(
    () => box.items.map((entry) => ({ ...entry, item: { ...entry.item, name: texts.itemName(entry.item) } })),
    [box.items, texts],
  );
  // the cards bake the art's raster copies: decoded in the scene worker, before the tap
  const pieces = useMemo(
    () => rouletteItems(items).map((piece) => ({ ...piece, imageUrl: sceneArtUrl(piece.imageUrl) })),
    [items],
  );

  const busy = phase !== 'idle';
  const showStage = mode === 'normal' && (phase === 'opening' || phase === 'spinning');
  const { open, quickOpen } = opening;
  const onOpen = useCallback(() => open(count, pieces), [open, count, pieces]);
  const onQuickOpen = useCallback(() => quickOpen(count), [quickOpen, count]);
  // the same copies the same way again, straight from the win screen
  const { again } = opening;
  const after = results[0]?.openingId;
  const onOpenAgain = useCallback(
    () =>
      again(
        mode === 'quick'
          ? () => quickOpen(opening.state.count, after)
          : () => open(opening.state.count, pieces, after),
      ),
    [again, mode, quickOpen, open, opening.state.count, pieces, after],
  );

  return (
    <section className="screen case-page" data-testid="case-page" data-phase={phase} aria-busy={busy}>
      <CaseHero
        imageUrl={box.imageUrl}
        pieces={pieces}
        reels={opening.reels}
        trackSeeds={opening.trackSeeds}
        count={busy ? opening.state.count : count}
        showStage={showStage}
        hasItems={box.items.length > 0}
        onDone={opening.spinDone}
      />
      <CaseHead box={box} />
      <CaseControls
        box={box}
        count={count}
        onCount={setCount}
        phase={phase}
        mode={mode}
        onOpen={onOpen}
        onQuickOpen={onQuickOpen}
      />

      <StillDropFeed />
      <StillCaseItems items={items} />

      {phase === 'finished' && (
        <WinScreen
          results={results}
          paid={box.price}
          closing={closing}
          onKeep={opening.keep}
          onOpenAgain={onOpenAgain}
        />
      )}
    </section>
  );
}

function CaseMessage({ title, testId, children }: { title: string; testId: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <section className="screen case-message" data-testid={testId}>
      {children}
      <h1 className="screen__title">{title}</h1>
      <Link to="/" className="button button--ghost">
        {t('case.toCases')}
      </Link>
    </section>
  );
}

function CaseSkeleton() {
  return (
    <section className="screen case-page" aria-busy="true" data-testid="case-loading">
      <div className="case-hero">
        <span className="skeleton case-hero__skeleton" />
      </div>
      <span className="skeleton case-skeleton__title" />
      <span className="skeleton case-actions__skeleton" />
    </section>
  );
}

function CaseView({ id }: { id: string }) {
  const { t } = useTranslation();
  const query = useAtomValue(useMemo(() => caseAtom(id), [id]));
  const box = query.data;

  if (!box) {
    const status = errorStatus(query.error);
    if (status === 404 || apiErrorBody(query.error)?.code === 'CASE_NOT_FOUND') {
      return (
        <CaseMessage title={t('case.notFound')} testId="case-not-found">
          <span className="case-message__art">
            <ArtImage src={null} />
          </span>
        </CaseMessage>
      );
    }
    if (query.isPending && query.fetchStatus !== 'paused') return <CaseSkeleton />;
    // an error with Retry, or offline
    return (
      <section className="screen">
        <QueryState query={query} testId="case" errorTitle={t('case.loadError')}>
          {() => null}
        </QueryState>
      </section>
    );
  }

  // A locked case cannot be entered (spec §5).
  if (box.isLocked) {
    return (
      <CaseMessage title={t('case.locked')} testId="case-locked">
        <span className="case-message__art">
          <ArtImage src={box.imageUrl} />
        </span>
      </CaseMessage>
    );
  }

  return <CaseOpenScreen key={box.id} box={box} />;
}

/** /case/{id}: the case, its items and odds, the opening controls, the roulette and the win screen. */
export function CasePage() {
  const { id = '' } = useParams();
  return <CaseView key={id} id={id} />;
}
