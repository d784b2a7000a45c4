import { useCallback, useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { UpgradeRollResponse } from '../../../contract/upgrade.ts';
import { formatTon } from '../../lib/format';
import { ArtImage } from '../../lib/ui/ArtImage';
import { shieldTaps } from '../../lib/ui/tap-shield';
import { TonIcon } from '../../lib/ui/TonIcon';
import type { CloseKind, UpgradeOutcome } from './model';
import { useCatalogueTexts } from '../../state/catalogue-texts';
import { playWinSound } from '../../lib/sound';
import { usePrefersReducedMotion } from '../../lib/scene-hooks';
import { badgeMultiplier, revealTier } from '../case/reveal';
import { MultiplierBadge, WinReveal } from '../case/WinReveal';

interface UpgradeResultSheetProps {
  outcome: UpgradeOutcome;
  /** the server's answer; null when the roll request failed */
  answer: UpgradeRollResponse | null;
  /** why the request failed */
  error: string | null;
  onClose: (kind: CloseKind) => void;
  /** Continue after a success: to the profile */
  onContinueToProfile: () => void;
}

/**
 * The chance wheel result (spec §2): a bottom sheet with a close action and a way to the inventory. Success
 * offers Repeat and Continue (to the profile); failure offers Back, Repeat and Continue.
 */
export function UpgradeResultSheet({
  outcome,
  answer,
  error,
  onClose,
  onContinueToProfile,
}: UpgradeResultSheetProps) {
  const { t } = useTranslation();
  const { itemName, itemGender } = useCatalogueTexts();
  const titleId = useId();
  const firstAction = useRef<HTMLButtonElement>(null);
  const success = outcome === 'success';
  const item = success ? answer?.result : answer?.stake;
  const reducedMotion = usePrefersReducedMotion();
  // a success is a win like a case's: revealed and sounded by its rarity or its gain over the stake
  const won = success && answer?.result ? answer.result : null;
  const tier = won && answer ? revealTier(won.rarity, won.price, answer.stake.price) : null;
  const multiplier = won && answer ? badgeMultiplier(won.price, answer.stake.price) : null;

  // the sheet closes once: the taps after the one that closed it (a double tap, a tap during its close)
  // are caught by the close guard instead of landing on the tab bar or the Upgrade button beneath
  const closed = useRef(false);
  const leave = useCallback((go: () => void) => {
    if (closed.current) return;
    closed.current = true;
    shieldTaps();
    go();
  }, []);

  useEffect(() => firstAction.current?.focus(), []);
  useEffect(() => {
    if (tier !== null) playWinSound(tier);
  }, [tier]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') leave(() => onClose('close'));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose, leave]);

  let text: string;
  if (success && answer)
    // Russian agrees with the stake: "Свеча превратилась…", "Золотые часы превратились…"
    text = t('upgrade.result.successText', {
      stake: itemName(answer.stake),
      target: itemName(answer.target),
      context: itemGender(answer.stake),
    });
  else if (answer)
    text = t('upgrade.result.failureText', {
      stake: itemName(answer.stake),
      context: itemGender(answer.stake),
    });
  else text = error ?? t('upgrade.result.error');

  return (
    <div className="upgrade-sheet-backdrop" onClick={() => leave(() => onClose('close'))}>
      {won && tier !== null && tier > 0 && !reducedMotion && answer && (
        <WinReveal tier={tier} rarity={won.rarity} seed={answer.betId} />
      )}
      <div
        className="upgrade-sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="upgrade-result"
        data-outcome={outcome}
        onClick={(event) => event.stopPropagation()}
      >
        <div className="upgrade-sheet__handle" aria-hidden="true" />
        <div className="upgrade-sheet__head">
          <h2 id={titleId} className="upgrade-sheet__title" data-testid="upgrade-result-title">
            {success ? t('upgrade.result.success') : t('upgrade.result.failure')}
          </h2>
          <button
            type="button"
            className="upgrade-sheet__close"
            aria-label={t('common.close')}
            data-testid="upgrade-result-close"
            onClick={() => leave(() => onClose('close'))}
          >
            <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d="m6 6 12 12M18 6 6 18" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
        {item && (
          <div className="upgrade-sheet__item" data-testid="upgrade-result-item" data-item-id={item.id}>
            {success && multiplier !== null && (
              <MultiplierBadge multiplier={multiplier} testId="upgrade-result-multiplier" />
            )}
            <span className="upgrade-sheet__art">
              <ArtImage src={item.imageUrl} />
            </span>
            <span className="upgrade-sheet__name">{itemName(item)}</span>
            <span className="upgrade-sheet__price">
              <TonIcon size={14} />
              {formatTon(item.price, 1)}
            </span>
          </div>
        )}
        <p className="upgrade-sheet__text" role={answer ? undefined : 'alert'}>
          {text}
        </p>
        <div className="upgrade-sheet__actions">
          {!success && (
            <button
              ref={firstAction}
              type="button"
              className="button button--ghost"
              data-testid="upgrade-back"
              onClick={() => leave(() => onClose('back'))}
            >
              {t('upgrade.result.back')}
            </button>
          )}
          <button
            ref={success ? firstAction : undefined}
            type="button"
            className="button button--ghost"
            data-testid="upgrade-repeat"
            onClick={() => onClose('repeat')}
          >
            {t('upgrade.result.repeat')}
          </button>
          <button
            type="button"
            className="button"
            data-testid="upgrade-continue"
            onClick={() => leave(() => (success ? onContinueToProfile() : onClose('continue')))}
          >
            {t('upgrade.result.continue')}
          </button>
        </div>
        <div className="upgrade-sheet__links">
          <Link to="/inventory" className="upgrade-sheet__link" data-testid="upgrade-to-inventory">
            {t('upgrade.result.toInventory')}
          </Link>
          {answer && (
            <Link
              to={`/proof/${answer.betId}`}
              className="upgrade-sheet__link upgrade-sheet__proof"
              data-testid="upgrade-proof-link"
            >
              {t('proofs.open')} · <span translate="no">{answer.betId}</span>
            </Link>
          )}
        </div>
      </div>
    </div>
  );
}
