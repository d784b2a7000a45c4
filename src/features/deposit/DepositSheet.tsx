import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { parseTon } from '../../../contract/money.ts';
import { openExternalLink } from '../../lib/telegram';
import { shieldTaps } from '../../lib/ui/tap-shield';
import { TonIcon } from '../../lib/ui/TonIcon';
import { queryKeys } from '../../state/queries';
import { queryClient } from '../../state/store';
import { AmountStep } from './AmountStep';
import { depositInfoAtom, methodMode } from './api';
import { GiftsStep } from './GiftsStep';
import { BackArrow, BigCheck } from './icons';
import { MethodStep } from './MethodStep';
import { CREDITED_SHOWN_MS, type Step } from './model';
import { StatusStep } from './StatusStep';
import { useDepositCredits } from './useDepositCredits';
import { useCatalogueTexts } from '../../state/catalogue-texts';
import { PromoField, refreshPromo } from './PromoField';
import { formatTon } from '../../lib/format';
import './deposit.css';

interface DepositSheetProps {
  open: boolean;
  onClose: () => void;
  /** a promo code to enter (the home banner's) */
  promoCode?: string | null;
}

/**
 * The deposit bottom sheet (spec §2, §4): choose a method (TON, CryptoBot, gifts), enter an amount, wait
 * for the credit (pushed over the deposit socket), then a check mark for 1.2 s and the sheet closes.
 * In demo mode the demo provider stands in for the wallet or the invoice, and the sheet says so.
 */
export function DepositSheet({ open, onClose, promoCode = null }: DepositSheetProps) {
  // Mounted only while open: every opening starts from the method choice.
  return open ? <DepositFlow onClose={onClose} promoCode={promoCode} /> : null;
}

function DepositFlow({ onClose: close, promoCode }: { onClose: () => void; promoCode: string | null }) {
  const { t } = useTranslation();
  const { itemName } = useCatalogueTexts();
  // every way out of the sheet leaves the close guard: the taps aimed at it do not reach the tab bar beneath
  const onClose = useCallback(() => {
    shieldTaps();
    close();
  }, [close]);
  const titleId = useId();
  const infoQuery = useAtomValue(depositInfoAtom);
  const info = infoQuery.data;
  const [step, setStep] = useState<Step>({ name: 'select' });
  const [busy, setBusy] = useState(false);

  useDepositCredits({
    onCredited: (message) => {
      if (message.bonus) refreshPromo(); // the waiting code is used
      setStep((current) =>
        current.name === 'waiting' && message.method !== 'gifts'
          ? { name: 'credited', amount: message.amount, bonus: message.bonus, promoCode: message.promoCode }
          : current.name === 'gifts' && message.method === 'gifts' && message.item
            ? { name: 'credited', amount: message.amount, item: message.item }
            : current,
      );
    },
    onReconnected: () => {
      // Back after a drop: a credit may have landed meanwhile; the balance tells.
      void queryClient.refetchQueries({ queryKey: queryKeys.balance }).then(() => {
        const balance = queryClient.getQueryData<string>(queryKeys.balance);
        setStep((current) =>
          current.name === 'waiting' &&
          current.baseline !== null &&
          balance !== undefined &&
          parseTon(balance) >= parseTon(current.baseline) + parseTon(current.amount)
            ? { name: 'credited', amount: current.amount }
            : current,
        );
      });
    },
  });

  // Credited: the check shows 1.2 s, then the sheet closes.
  useEffect(() => {
    if (step.name !== 'credited') return;
    const timer = window.setTimeout(onClose, CREDITED_SHOWN_MS);
    return () => window.clearTimeout(timer);
  }, [step.name, onClose]);

  // Escape closes, except while a request is under way (the wallet's own modal takes Escape then).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !busy) onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [busy, onClose]);

  const back = step.name === 'amount' || step.name === 'gifts' ? () => setStep({ name: 'select' }) : null;
  const demo =
    step.name === 'amount' || step.name === 'waiting' ? methodMode(info, step.method) === 'demo' : false;

  return (
    <div className="sheet-backdrop" onClick={busy ? undefined : onClose}>
      <div
        className="sheet deposit"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="deposit-sheet"
        data-step={step.name}
        onClick={(event) => event.stopPropagation()}
      >
        <div className="sheet__handle" aria-hidden="true" />
        <div className="deposit__head">
          {back && (
            <button
              type="button"
              className="deposit__back"
              onClick={back}
              disabled={busy}
              aria-label={t('deposit.back')}
              data-testid="deposit-back"
            >
              <BackArrow />
            </button>
          )}
          <h2 id={titleId} className="sheet__title deposit__title">
            {t('deposit.title')}
          </h2>
          {(step.name === 'select' ? info?.demo : demo) && (
            <span className="deposit__badge" data-testid="deposit-demo-badge">
              {t('deposit.demoBadge')}
            </span>
          )}
        </div>

        {step.name === 'select' && (
          <MethodStep
            info={info}
            failed={infoQuery.isError}
            onRetry={() => void infoQuery.refetch()}
            onPick={setStep}
          />
        )}
        {step.name === 'gifts' && <GiftsStep onBack={() => setStep({ name: 'select' })} />}
        {step.name === 'amount' && info && (
          <AmountStep
            key={step.method}
            info={info}
            method={step.method}
            busy={busy}
            setBusy={setBusy}
            onSent={(amount, invoiceUrl, baseline) =>
              setStep({ name: 'waiting', method: step.method, amount, invoiceUrl, baseline })
            }
          />
        )}
        {step.name === 'waiting' && (
          <StatusStep
            testId="deposit-waiting"
            visual={
              <span className="deposit__loader">
                <TonIcon size={30} />
              </span>
            }
            title={t('deposit.waitingTitle')}
            text={t('deposit.waitingText')}
            amount={step.amount}
          >
            {step.invoiceUrl && (
              <button
                type="button"
                className="button deposit__wide"
                onClick={() => openExternalLink(step.invoiceUrl!)}
              >
                {t('deposit.openInvoice')}
              </button>
            )}
            <button type="button" className="button button--ghost deposit__wide" onClick={onClose}>
              {t('common.close')}
            </button>
          </StatusStep>
        )}
        {step.name === 'credited' && (
          <StatusStep
            testId="deposit-credited"
            visual={
              <span className="deposit__check">
                <BigCheck />
              </span>
            }
            title={step.item ? t('telegram.gifts.credited') : t('deposit.credited')}
            text={step.item ? itemName(step.item) : undefined}
            amount={step.item ? undefined : step.amount}
          >
            {step.bonus && (
              <p className="deposit__status-bonus" data-testid="deposit-bonus">
                {t('retention.promo.bonus', { code: step.promoCode ?? '', amount: formatTon(step.bonus) })}
              </p>
            )}
          </StatusStep>
        )}
        {(step.name === 'select' || step.name === 'amount') && <PromoField initialCode={promoCode} />}
      </div>
    </div>
  );
}
