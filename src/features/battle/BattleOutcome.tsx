import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Battle, BattleSeat } from '../../../contract/battles.ts';
import { parseTon, sumTon } from '../../../contract/money.ts';
import { apiErrorText } from '../../lib/api-error';
import { formatTon } from '../../lib/format';
import { hapticImpact } from '../../lib/haptics';
import { useMoneyAction } from '../../lib/money-action';
import { usePrefersReducedMotion } from '../../lib/scene-hooks';
import { playWinSound } from '../../lib/sound';
import { ConfirmDialog } from '../../lib/ui/ConfirmDialog';
import { TonIcon } from '../../lib/ui/TonIcon';
import { badgeMultiplier, revealTier } from '../case/reveal';
import { MultiplierBadge, WinReveal } from '../case/WinReveal';
import { createBattle } from './api';

interface BattleOutcomeProps {
  battle: Battle;
  me: BattleSeat;
  won: boolean;
}

/**
 * The player's result once the last round has landed: won or lost, the pot (every item of the battle, the
 * winners take it all), what came to the player, and "Recreate battle" (the same cases, format and mode,
 * paid after a confirmation like any seat). A win is revealed and sounded like a case's: its tier by the
 * dearest item's rarity or the player's take against the seat's price.
 */
export function BattleOutcome({ battle, me, won }: BattleOutcomeProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const reducedMotion = usePrefersReducedMotion();
  const money = useMoneyAction('battle');
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const pot = sumTon(battle.rolls.map((r) => r.item.price));
  const take = sumTon(battle.rolls.filter((r) => r.awardedSeat === me.seat).map((r) => r.item.price));
  const dearest = battle.rolls.reduce<Battle['rolls'][number] | null>(
    (best, r) => (best === null || parseTon(r.item.price) > parseTon(best.item.price) ? r : best),
    null,
  );
  const tier = won && dearest ? revealTier(dearest.item.rarity, take, battle.cost) : null;
  const multiplier = won ? badgeMultiplier(take, battle.cost) : null;

  useEffect(() => {
    if (tier !== null) playWinSound(tier);
  }, [tier]);

  const recreate = async () => {
    setAsking(false);
    const created = money.run(`battle:recreate:${battle.id}`, (key) =>
      createBattle({ format: battle.format, mode: battle.mode, caseIds: battle.cases.map((c) => c.id) }, key),
    );
    if (!created) return;
    setError(null);
    try {
      const next = await created;
      hapticImpact('medium');
      void navigate(`/battle/${next.id}`);
    } catch (err) {
      setError(apiErrorText(err, t('battle.errors.create')));
    }
  };

  const price = formatTon(battle.cost, 2);
  return (
    <div className="battle__outcome" data-testid="battle-outcome" data-won={won || undefined}>
      {tier !== null && tier > 0 && !reducedMotion && dearest && (
        <WinReveal tier={tier} rarity={dearest.item.rarity} seed={battle.id} />
      )}
      <p className="battle__result" data-testid="battle-result" data-won={won || undefined}>
        {won ? t('battle.result.won') : t('battle.result.lost')}
        {multiplier !== null && <MultiplierBadge multiplier={multiplier} testId="battle-multiplier" />}
      </p>
      <dl className="battle__outcome-figures">
        <div>
          <dt>{t('battle.outcome.pot')}</dt>
          <dd data-testid="battle-pot">
            <TonIcon size={14} /> {formatTon(pot)}
          </dd>
        </div>
        <div>
          <dt>{t('battle.outcome.yours')}</dt>
          <dd data-testid="battle-take">
            <TonIcon size={14} /> {formatTon(take)}
          </dd>
        </div>
      </dl>
      <button
        type="button"
        className="button"
        disabled={money.busy}
        aria-haspopup="dialog"
        onClick={() => setAsking(true)}
        data-testid="battle-recreate"
      >
        {t('battle.outcome.recreate')}
      </button>
      {error && (
        <p className="battle__error" role="alert">
          {error}
        </p>
      )}
      {asking && (
        <ConfirmDialog
          testId="battle-recreate-dialog"
          title={t('battle.outcome.recreateTitle')}
          confirmLabel={t('battle.joinConfirm.confirm', { price })}
          cancelLabel={t('common.cancel')}
          onCancel={() => setAsking(false)}
          onConfirm={() => void recreate()}
        >
          <p className="battle__join-text" data-testid="battle-recreate-price">
            {t('battle.joinConfirm.text', { price, count: battle.cases.length })}
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
