import { atom, useAtomValue, useStore } from 'jotai';
import {
  memo,
  startTransition,
  useCallback,
  useEffect,
  useLayoutEffect,
  useReducer,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { InventoryEntry } from '../../../contract/inventory.ts';
import type { Item } from '../../../contract/cases.ts';
import type { UpgradeMultiplier, UpgradeRollResponse } from '../../../contract/upgrade.ts';
import { apiErrorText } from '../../lib/api-error';
import { formatTon } from '../../lib/format';
import { hapticImpact, hapticNotification, hapticSelection, lockVerticalSwipes } from '../../lib/haptics';
import { runMoneyAction } from '../../lib/money-action';
import { preloadSounds } from '../../lib/sound';
import { ArtImage } from '../../lib/ui/ArtImage';
import { afterTap } from '../../lib/ui/after-tap';
import { usePress } from '../../lib/ui/press';
import { ConfirmDialog } from '../../lib/ui/ConfirmDialog';
import { QueryState, type QueryLike } from '../../lib/ui/QueryState';
import { TonIcon } from '../../lib/ui/TonIcon';
import { inventoryAtom } from '../../state/inventory';
import { meAtom, queryKeys } from '../../state/queries';
import { queryClient } from '../../state/store';
import { keepUnseen, markSeen, readUnseen } from '../../state/unseen';
import {
  refreshAfterUpgrade,
  rollUpgrade,
  upgradeConfigAtom,
  upgradeOptionsAtom,
  type UpgradeOptionsAtom,
} from './api';

/** No stake or multiplier yet: no options to read. */
const NO_OPTIONS = atom({ data: undefined }) as unknown as UpgradeOptionsAtom;
import {
  INITIAL_STATE,
  MULTIPLIERS,
  SPEC_BASE_CHANCE,
  canUpgrade,
  isBusy,
  shownChance,
  upgradeReducer,
  type CloseKind,
  type UpgradeState,
} from './model';
import { UpgradeResultSheet } from './UpgradeResultSheet';
import { RollChance, UpgradeWheel, type WheelRoll } from './UpgradeWheel';
import { PLACEHOLDER_CASES } from './placeholders';
import './upgrade.css';

/** The upgrade screen keeps one unseen roll per player (one roll runs at a time). */
const UNSEEN_ID = 'last';
import { useCatalogueTexts } from '../../state/catalogue-texts';

const multiplierLabel = (coef: UpgradeMultiplier) => `x${coef}`;

/**
 * The upgrade game (spec §2, §4, §5): the result panel (the chance wheel) on top, then the control block
 * (bet amount, desired prize, multipliers, Upgrade), the tabs 'Your inventory' and 'Desired gift', and the
 * grid. The server takes the stake and rolls; the wheel then turns to its roll, and the result sheet follows.
 */
export function UpgradePage() {
  const { t } = useTranslation();
  const { itemName } = useCatalogueTexts();
  const navigate = useNavigate();
  const [state, dispatch] = useReducer(upgradeReducer, INITIAL_STATE);
  const config = useAtomValue(upgradeConfigAtom);
  const inventory = useAtomValue(inventoryAtom);
  const baseChance = config.data?.baseChance ?? SPEC_BASE_CHANCE;

  const entries = inventory.data;
  const stake = entries?.find((e) => e.id === state.stakeId) ?? null;
  const busy = isBusy(state);

  // the staked item left the inventory (lost, sold elsewhere): nothing is selected any more
  useEffect(() => {
    if (entries && state.stakeId !== null && !stake && !busy) dispatch({ type: 'stakeGone' });
  }, [entries, state.stakeId, stake, busy]);

  useEffect(() => preloadSounds(), []);

  // no swiping the app away from the tap until the wheel has told the result
  const rolling = state.phase === 'rolling';
  useEffect(() => (rolling ? lockVerticalSwipes() : undefined), [rolling]);

  const latest = useRef(state);
  useLayoutEffect(() => {
    latest.current = state;
  }, [state]);
  const refreshed = useRef<Promise<void>>(Promise.resolve());
  const panel = useRef<HTMLDivElement>(null);
  // the roll the wheel shows: set from the answer itself, so the wheel turns before the screen re-renders
  const store = useStore();
  const [wheelRoll] = useState(() => atom<WheelRoll | null>(null));
  const spins = useRef(0);
  // the roll whose result the wheel is to tell, and the server's answer the screen takes in when it does
  const awaiting = useRef<{ spinId: number; answer: UpgradeRollResponse } | null>(null);
  // the chance shown at rest, for a failed roll's red wheel
  const restingChance = useRef(0);
  const showRoll = useCallback(
    (answer: Pick<UpgradeRollResponse, 'rolled' | 'chance' | 'success'> | null, failedAt?: number) => {
      if (answer) {
        spins.current += 1;
        const outcome = answer.success ? 'success' : 'fail';
        store.set(wheelRoll, {
          spinId: spins.current,
          rolled: answer.rolled,
          chance: answer.chance,
          outcome,
        });
        return spins.current;
      } else if (failedAt !== undefined) {
        store.set(wheelRoll, { spinId: spins.current, rolled: null, chance: failedAt, outcome: 'fail' });
      } else {
        store.set(wheelRoll, null);
      }
      return null;
    },
    [store, wheelRoll],
  );

  const start = useCallback(
    async (current: UpgradeState) => {
      const { coef, stakeId, targetId } = current;
      if (coef === null || stakeId === null) return;
      // one tap, one roll: guarded here, at the tap; the same roll again after a lost answer reuses its key
      const roll = runMoneyAction('upgrade', `upgrade:${stakeId}:${coef}:${targetId ?? ''}`, async (key) => {
        const answer = await rollUpgrade(
          { baseChance, coef, itemId: stakeId, ...(targetId ? { targetItemId: targetId } : {}) },
          key,
        );
        // kept until its sheet shows: leaving or reloading mid-roll does not hide the outcome
        keepUnseen('upgrade', UNSEEN_ID, answer);
        return answer;
      });
      if (!roll) return;
      // the wheel is what to watch now, wherever the grid was scrolled to: brought fully into view by the
      // least scroll (none when it is in view already), at once, in the tap's own frame, while the request
      // is out. A smooth scroll ran ~300 ms at 6x, well into the wheel's start: every frame of it a scroll
      // event, a hover hit test (the page moving under the finger), style and a commit on the main thread
      panel.current?.scrollIntoView?.({ block: 'nearest', behavior: 'instant' });
      // the request has left: the screen's re-render (buttons held, the phase) follows in the tap's next
      // frame (see afterTap), not work between the tap and the wheel; the guard above holds a second tap
      hapticImpact('medium');
      const started = afterTap(() => dispatch({ type: 'start' }));
      try {
        const answer = await roll;
        started();
        // the wheel turns now (the roll atom reaches the scene by subscription, not through a render), and
        // nothing renders for it: the wheel's box follows the atom by subscription too, the chance under it
        // renders only if its text changes (in a transition), and the screen takes the answer in when the
        // wheel tells the result
        startTransition(() => {
          const spinId = showRoll(answer);
          if (spinId !== null) awaiting.current = { spinId, answer };
        });
      } catch (error) {
        started();
        showRoll(null, restingChance.current);
        startTransition(() =>
          dispatch({ type: 'failed', error: apiErrorText(error, t('upgrade.result.error')) }),
        );
        hapticNotification('error');
        refreshed.current = refreshAfterUpgrade();
      }
    },
    [baseChance, t, showRoll],
  );

  const onResult = useCallback((spinId: number) => {
    // only a roll this screen started (not an unseen roll the wheel shows again) tells its result here
    const pending = awaiting.current;
    if (pending?.spinId !== spinId) return;
    awaiting.current = null;
    dispatch({ type: 'resulted', answer: pending.answer });
    // the result sheet sounds a success as big as it is
    if (pending.answer.success) {
      hapticNotification('success');
    } else {
      hapticNotification('error');
    }
    // only now: the grid must not tell the result before the wheel does
    refreshed.current = refreshAfterUpgrade();
  }, []);

  // Repeat first shows what it will stake (the same item, multiplier and gift), then stakes on Confirm
  const [repeatStake, setRepeatStake] = useState<InventoryEntry | null>(null);

  const close = useCallback(
    async (kind: CloseKind) => {
      const before = latest.current;
      if (kind !== 'repeat') {
        showRoll(null);
        dispatch({ type: 'close', kind });
        return;
      }
      // the inventory after this roll tells whether the item is still held (a stake held more than once)
      await refreshed.current;
      const held = queryClient
        .getQueryData<InventoryEntry[]>(queryKeys.inventory)
        ?.find((e) => e.id === before.stakeId && e.quantity > 0);
      if (held) {
        setRepeatStake(held);
        return;
      }
      showRoll(null);
      dispatch({ type: 'close', kind });
      dispatch({ type: 'tab', tab: 'inventory' });
    },
    [showRoll],
  );

  const confirmRepeat = useCallback(() => {
    const before = latest.current;
    setRepeatStake(null);
    showRoll(null);
    dispatch({ type: 'close', kind: 'repeat' });
    void start({ ...before, started: false, phase: 'idle' });
  }, [start, showRoll]);
  const cancelRepeat = useCallback(() => setRepeatStake(null), []);

  const continueToProfile = useCallback(() => {
    showRoll(null);
    dispatch({ type: 'close', kind: 'continue' });
    void navigate('/profile');
  }, [navigate, showRoll]);

  // the result sheet is up: the roll is seen
  useEffect(() => {
    if (state.phase === 'result') markSeen('upgrade', UNSEEN_ID);
  }, [state.phase]);
  // back after leaving (or reloading) mid-roll: the roll's result sheet shows first
  const playerId = useAtomValue(meAtom).data?.id;
  const [checkedFor, setCheckedFor] = useState<string | undefined>(undefined);
  if (playerId !== undefined && checkedFor !== playerId) {
    setCheckedFor(playerId);
    const unseen = readUnseen<UpgradeRollResponse>(playerId, 'upgrade', UNSEEN_ID);
    if (unseen && state.phase === 'idle') dispatch({ type: 'unseen', answer: unseen });
  }
  // such a roll turns the wheel to it once more (set after the render that found it)
  useLayoutEffect(() => {
    if (state.phase === 'result' && state.rolled !== null && store.get(wheelRoll) === null && state.answer)
      showRoll(state.answer);
  }, [state.phase, state.rolled, state.answer, store, wheelRoll, showRoll]);
  // stable, so the grids (memoized) render again only when what they show changes, not with each phase
  const selectStake = useCallback((itemId: string) => {
    hapticSelection();
    dispatch({ type: 'stake', itemId });
  }, []);
  const selectTarget = useCallback((itemId: string) => {
    hapticSelection();
    dispatch({ type: 'target', itemId });
  }, []);

  // stable: the button reads the state of the tap's render
  const upgrade = useCallback(() => void start(latest.current), [start]);

  const optionsReady = state.coef !== null && stake !== null;
  const options = useAtomValue(optionsReady ? upgradeOptionsAtom(stake.id, state.coef!) : NO_OPTIONS);
  const targets = options.data?.targets ?? [];
  const target = targets.find((i) => i.id === state.targetId) ?? targets[0];
  // the exact odds of the gift aimed at, shown before the player commits
  const chance = shownChance(state, baseChance, target?.chance);
  useLayoutEffect(() => {
    restingChance.current = chance;
  }, [chance]);

  return (
    <section
      className="screen upgrade-page"
      data-testid="upgrade-page"
      data-phase={state.phase}
      aria-busy={busy}
    >
      <h1 className="visually-hidden">{t('upgrade.title')}</h1>

      <div ref={panel} className="upgrade-panel" data-testid="upgrade-panel">
        <UpgradeWheel chance={chance} roll={wheelRoll} onResult={onResult} />
        <p className="upgrade-panel__chance">
          {t('upgrade.chance')} <RollChance chance={chance} roll={wheelRoll} />
        </p>
      </div>

      <div className="upgrade-controls">
        <div className="upgrade-amounts">
          <Amount label={t('upgrade.bet')} value={stake?.item.price ?? '0'} testId="upgrade-bet" />
          {optionsReady ? (
            <DesiredPrize stakeId={stake.id} coef={state.coef!} targetId={state.targetId} />
          ) : (
            <Amount label={t('upgrade.prize')} value="0" testId="upgrade-prize" />
          )}
        </div>

        <div className="upgrade-multipliers" role="group" aria-label={t('upgrade.multiplier')}>
          {MULTIPLIERS.map((coef) => (
            <button
              key={coef}
              type="button"
              className="upgrade-multipliers__option"
              aria-pressed={state.coef === coef}
              data-testid={`multiplier-${coef}`}
              disabled={busy}
              onClick={() => {
                hapticSelection();
                dispatch({ type: 'coef', coef });
              }}
            >
              {multiplierLabel(coef)}
            </button>
          ))}
        </div>

        {optionsReady ? (
          <UpgradeButton
            stakeId={stake.id}
            coef={state.coef!}
            targetId={state.targetId}
            started={state.started}
            upgrading={rolling}
            ready={config.data !== undefined}
            onUpgrade={upgrade}
          />
        ) : (
          <button type="button" className="button upgrade-button" data-testid="upgrade-button" disabled>
            {t('upgrade.upgrade')}
          </button>
        )}
      </div>

      <div className="upgrade-tabs" role="tablist">
        {(['inventory', 'target'] as const).map((tab) => (
          <button
            key={tab}
            type="button"
            role="tab"
            className="upgrade-tabs__tab"
            aria-selected={state.tab === tab}
            data-testid={`upgrade-tab-${tab}`}
            onClick={() => dispatch({ type: 'tab', tab })}
          >
            {tab === 'inventory' ? t('upgrade.tabs.inventory') : t('upgrade.tabs.target')}
          </button>
        ))}
      </div>

      {state.tab === 'inventory' ? (
        <InventoryGrid query={inventory} selectedId={state.stakeId} disabled={busy} onSelect={selectStake} />
      ) : optionsReady ? (
        <TargetGrid
          stakeId={stake.id}
          coef={state.coef!}
          selectedId={state.targetId}
          disabled={busy}
          onSelect={selectTarget}
        />
      ) : (
        <p className="upgrade-grid__message" data-testid="upgrade-targets-hint">
          {t('upgrade.pickFirst')}
        </p>
      )}

      {state.phase === 'result' && state.outcome && (
        <UpgradeResultSheet
          outcome={state.outcome}
          answer={state.answer}
          error={state.error}
          onClose={(kind) => void close(kind)}
          onContinueToProfile={continueToProfile}
        />
      )}
      {state.phase === 'result' && repeatStake && state.coef !== null && (
        <ConfirmDialog
          testId="upgrade-repeat-dialog"
          title={t('upgrade.repeatTitle')}
          confirmLabel={t('upgrade.repeatConfirm')}
          cancelLabel={t('common.cancel')}
          onConfirm={confirmRepeat}
          onCancel={cancelRepeat}
        >
          <div
            className="upgrade-repeat"
            data-testid="upgrade-repeat-stake"
            data-item-id={repeatStake.item.id}
          >
            <span className="upgrade-repeat__art">
              <ArtImage src={repeatStake.item.imageUrl} />
            </span>
            <span className="upgrade-repeat__name">{itemName(repeatStake.item)}</span>
            <span className="upgrade-repeat__price" data-testid="upgrade-repeat-price">
              <TonIcon size={14} />
              {formatTon(repeatStake.item.price, 2)}
            </span>
            <span className="upgrade-repeat__coef" data-testid="upgrade-repeat-coef">
              {multiplierLabel(state.coef)}
            </span>
          </div>
          <p className="upgrade-repeat__text">
            {state.answer
              ? t('upgrade.repeatText', {
                  stake: itemName(repeatStake.item),
                  target: itemName(state.answer.target),
                })
              : t('upgrade.repeatTextNoTarget', { stake: itemName(repeatStake.item) })}
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

const Amount = memo(function Amount({
  label,
  value,
  testId,
}: {
  label: string;
  value: string;
  testId: string;
}) {
  return (
    <div className="upgrade-amount">
      <span className="upgrade-amount__label">{label}</span>
      <span className="upgrade-amount__value" data-testid={testId}>
        <TonIcon size={16} />
        {formatTon(value, 2)}
      </span>
    </div>
  );
});

/** The target: the player's pick, else the server's default (the first option). */
function useTarget(stakeId: string, coef: UpgradeMultiplier, targetId: string | null) {
  const options = useAtomValue(upgradeOptionsAtom(stakeId, coef));
  const targets = options.data?.targets ?? [];
  const target = targets.find((i) => i.id === targetId) ?? targets[0] ?? null;
  return { options, targets, target };
}

const DesiredPrize = memo(function DesiredPrize({
  stakeId,
  coef,
  targetId,
}: {
  stakeId: string;
  coef: UpgradeMultiplier;
  targetId: string | null;
}) {
  const { t } = useTranslation();
  const { target } = useTarget(stakeId, coef, targetId);
  return <Amount label={t('upgrade.prize')} value={target?.price ?? '0'} testId="upgrade-prize" />;
});

/** Rendered again only when its label or whether it can be tapped may change, not with each phase. */
const UpgradeButton = memo(function UpgradeButton({
  stakeId,
  coef,
  targetId,
  started,
  upgrading,
  ready,
  onUpgrade,
}: {
  stakeId: string;
  coef: UpgradeMultiplier;
  targetId: string | null;
  started: boolean;
  /** a roll is out or turning */
  upgrading: boolean;
  /** the odds have loaded (the stake is held: the button shows only then) */
  ready: boolean;
  onUpgrade: () => void;
}) {
  const { t } = useTranslation();
  const { target } = useTarget(stakeId, coef, targetId);
  // the request leaves at the tap's release, not its click (see usePress)
  const upgradePress = usePress(onUpgrade);
  const enabled = canUpgrade({ coef, stakeId, started }, { stakeHeld: ready, hasTarget: target !== null });
  return (
    <button
      type="button"
      className="button upgrade-button"
      data-testid="upgrade-button"
      disabled={!enabled}
      {...upgradePress}
    >
      {upgrading ? t('upgrade.upgrading') : t('upgrade.upgrade')}
    </button>
  );
});

interface GridProps {
  selectedId: string | null;
  disabled: boolean;
  onSelect: (itemId: string) => void;
}

const ItemCard = memo(function ItemCard({
  item,
  selected,
  disabled,
  quantity,
  testId,
  onSelect,
}: {
  item: Pick<Item, 'id' | 'name' | 'imageUrl' | 'price'>;
  selected: boolean;
  disabled: boolean;
  quantity?: number;
  testId: string;
  onSelect: (itemId: string) => void;
}) {
  const { itemName } = useCatalogueTexts();
  return (
    <li>
      <button
        type="button"
        className="upgrade-card"
        aria-pressed={selected}
        disabled={disabled}
        data-testid={testId}
        data-item-id={item.id}
        data-quantity={quantity}
        onClick={() => onSelect(item.id)}
      >
        {quantity !== undefined && quantity > 1 && (
          <span className="upgrade-card__quantity">x{quantity}</span>
        )}
        <span className="upgrade-card__art">
          <ArtImage src={item.imageUrl} />
        </span>
        <span className="upgrade-card__name">{itemName(item)}</span>
        <span className="upgrade-card__price">
          <TonIcon size={12} />
          {formatTon(item.price, 1)}
        </span>
      </button>
    </li>
  );
});

const InventoryGrid = memo(function InventoryGrid({
  query,
  selectedId,
  disabled,
  onSelect,
}: GridProps & { query: QueryLike<InventoryEntry[]> }) {
  const { t } = useTranslation();
  return (
    <QueryState
      query={query}
      testId="upgrade-inventory"
      compact
      errorTitle={t('upgrade.loadError')}
      isEmpty={(entries) => entries.length === 0}
      empty={
        <div className="upgrade-grid__message">
          <p>{t('upgrade.empty')}</p>
          <Link to="/" className="button button--ghost">
            {t('upgrade.toCases')}
          </Link>
        </div>
      }
    >
      {(entries) => (
        <ul className="upgrade-grid" data-testid="upgrade-inventory">
          {entries.map((entry) => (
            <ItemCard
              key={entry.id}
              item={entry.item}
              quantity={entry.quantity}
              selected={entry.id === selectedId}
              disabled={disabled}
              testId="upgrade-item"
              onSelect={onSelect}
            />
          ))}
        </ul>
      )}
    </QueryState>
  );
});

const TargetGrid = memo(function TargetGrid({
  stakeId,
  coef,
  selectedId,
  disabled,
  onSelect,
}: GridProps & { stakeId: string; coef: UpgradeMultiplier }) {
  const { t } = useTranslation();
  const { options, target } = useTarget(stakeId, coef, selectedId);
  return (
    <QueryState
      query={options}
      testId="upgrade-targets"
      compact
      errorTitle={t('upgrade.targetsError')}
      isEmpty={(answer) => answer.targets.length === 0}
      empty={
        <>
          <p className="upgrade-grid__message" data-testid="upgrade-no-targets">
            {t('upgrade.noTargets')} {t('upgrade.placeholders')}
          </p>
          <PlaceholderGrid />
        </>
      }
    >
      {({ targets }) => (
        <ul className="upgrade-grid" data-testid="upgrade-targets">
          {targets.map((item) => (
            <ItemCard
              key={item.id}
              item={item}
              selected={item.id === target?.id}
              disabled={disabled}
              testId="upgrade-target"
              onSelect={onSelect}
            />
          ))}
        </ul>
      )}
    </QueryState>
  );
});

/**
 * The spec's 56 placeholder cases with name, image and price: what 'Desired gift' offers when the catalogue
 * has nothing to aim at. They are not in the catalogue, so they cannot be picked as a target: the cards
 * are shown disabled and Upgrade stays off.
 */
function PlaceholderGrid() {
  const { t } = useTranslation();
  return (
    <ul className="upgrade-grid" data-testid="upgrade-placeholders">
      {PLACEHOLDER_CASES.map((box) => (
        <li key={box.id}>
          <div
            className="upgrade-card upgrade-card--placeholder"
            aria-disabled="true"
            data-testid="upgrade-placeholder"
            data-price={box.price}
          >
            <span className="upgrade-card__art">
              <ArtImage src={box.imageUrl} />
            </span>
            <span className="upgrade-card__name">{t('upgrade.placeholderName', { n: box.number })}</span>
            <span className="upgrade-card__price">
              <TonIcon size={12} />
              {formatTon(box.price, 1)}
            </span>
          </div>
        </li>
      ))}
    </ul>
  );
}
