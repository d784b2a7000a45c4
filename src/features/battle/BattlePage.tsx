import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  battleReelConfig,
  battleReelHeight,
  pickWinner,
  type BattleReelScenePlan,
} from '../../../scenes/battle-reel';
import type { SceneEvent } from '../../../scenes/runtime';
import { hapticImpact, hapticSelection } from '../../lib/haptics';
import { useElementWidth, usePrefersReducedMotion, sceneResolution } from '../../lib/scene-hooks';
import { playTick, preloadSounds } from '../../lib/sound';
import { SceneView } from '../../lib/scene/SceneView';
import { useSpinWatchdog } from '../../lib/scene/useSpinWatchdog';
import { Avatar } from '../../lib/ui/Avatar';
import { TonIcon } from '../../lib/ui/TonIcon';
import { BATTLE_CASES, BETS, INVENTORY_SLOTS, ROUND } from './cases';
import './battle.css';

/** Space above and below the tiles inside the reel, px. */
const REEL_PADDING = 12;
/** A started spin's length, ms: once it has run this (plus a margin) the bet buttons unlock anyway. */
const SPIN_MS = battleReelConfig.startLeadMs + battleReelConfig.durationMs;

type Side = 'you' | 'opponent';
const SIDES: readonly Side[] = ['you', 'opponent'];

/**
 * The battle (a static demonstration, spec §2, §4): two players with their bets, round 1, and a local reel
 * of 7 cases that spins 3 s with 3 extra loops. The winner is picked here and only logged.
 */
export function BattlePage() {
  const { t } = useTranslation();
  const [reelRef, width] = useElementWidth<HTMLDivElement>();
  const reducedMotion = usePrefersReducedMotion();
  // the round plays once when the screen opens; a bet plays it again
  const [spin, setSpin] = useState(() => ({ id: 1, winner: pickWinner(Math.random, BATTLE_CASES.length) }));
  const [spinning, setSpinning] = useState(true);

  const stop = useCallback(() => setSpinning(false), []);

  useEffect(() => preloadSounds(), []);

  // a stalled scene must not lock the screen; counted from when the reel really starts, not from the bet
  const started = useSpinWatchdog(spinning, SPIN_MS, stop);

  const plan = useMemo<BattleReelScenePlan>(
    () => ({ images: BATTLE_CASES, winnerIndex: spin.winner, reducedMotion }),
    [spin, reducedMotion],
  );
  const onEvents = useCallback(
    (events: SceneEvent[]) => {
      for (const event of events) {
        if (event.type === 'tick') {
          playTick();
          hapticSelection();
        } else if (event.type === 'started') {
          started();
        } else if (event.type === 'settled' && event.result.scene === 'battle-reel') {
          const winnerIndex = event.result.caseIndex;
          console.info(
            'Battle demo: the reel stopped on',
            BATTLE_CASES[winnerIndex]?.id,
            `(#${winnerIndex})`,
          );
          hapticImpact('medium');
          stop();
        } else if (event.type === 'error') {
          console.error('Battle reel failed', event.message);
          stop();
        }
      }
    },
    [stop, started],
  );

  const bet = () => {
    if (spinning) return;
    hapticImpact('light');
    const winner = pickWinner(Math.random, BATTLE_CASES.length);
    setSpin((current) => ({ id: current.id + 1, winner }));
    setSpinning(true);
  };

  return (
    <section className="screen battle" data-testid="battle-page">
      <div className="battle__head">
        <h1 className="screen__title">{t('battle.title')}</h1>
        <span className="battle__round" data-testid="battle-round">
          {t('battle.round', { round: ROUND })}
        </span>
      </div>

      <div className="battle__sides">
        {SIDES.map((side, i) => (
          <div key={side} className="battle__side" data-side={side} data-testid={`battle-side-${side}`}>
            <div className="battle__player">
              <Avatar src={null} name={t(`battle.${side}`)} size={44} />
              <span className="battle__name">{t(`battle.${side}`)}</span>
            </div>
            <button
              type="button"
              className="button battle__bet"
              onClick={bet}
              disabled={spinning}
              aria-label={t('battle.bet', { amount: BETS[i] })}
              data-testid={`battle-bet-${side}`}
            >
              <TonIcon size={18} />
              <span>{BETS[i]}</span>
            </button>
          </div>
        ))}
        <span className="battle__versus" aria-hidden="true">
          {t('battle.versus')}
        </span>
      </div>

      <div
        ref={reelRef}
        className="battle__reel"
        style={{ height: battleReelHeight(REEL_PADDING) }}
        data-testid="battle-reel"
        data-spinning={spinning || undefined}
        role="img"
        aria-label={t('battle.reelLabel')}
      >
        {width > 0 && (
          <SceneView
            scene="battle-reel"
            plan={plan}
            play={spin.id}
            width={width}
            height={battleReelHeight(REEL_PADDING)}
            dpr={sceneResolution()}
            className="battle__canvas"
            onEvents={onEvents}
          />
        )}
        <span className="battle__fade battle__fade--left" aria-hidden="true" />
        <span className="battle__fade battle__fade--right" aria-hidden="true" />
      </div>

      <div className="battle__inventories">
        {SIDES.map((side) => (
          <section
            key={side}
            className="battle__inventory"
            aria-label={`${t(`battle.${side}`)}: ${t('battle.inventory')}`}
          >
            <h2 className="battle__inventory-title">{t('battle.inventory')}</h2>
            <ul className="battle__slots" data-testid={`battle-inventory-${side}`}>
              {Array.from({ length: INVENTORY_SLOTS }, (_, k) => (
                <li key={k} className="battle__slot" aria-label={t('battle.emptySlot')} />
              ))}
            </ul>
          </section>
        ))}
      </div>

      <p className="battle__note">{t('battle.demoNote')}</p>
    </section>
  );
}
