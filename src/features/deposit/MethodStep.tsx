import { useTranslation } from 'react-i18next';
import type { DepositInfo, DepositMethod } from '../../../contract/deposit.ts';
import { TonIcon } from '../../lib/ui/TonIcon';
import { giftsMode, methodMode } from './api';
import { ChevronRight, CryptoBotMark, GiftMarkSmall } from './icons';
import type { Step } from './model';

const METHODS = ['ton', 'cryptobot', 'gifts'] as const;

/** Step 1: the methods (TON, CryptoBot, gifts), each marked demo or unavailable as the server says. */
export function MethodStep({
  info,
  failed,
  onRetry,
  onPick,
}: {
  info: DepositInfo | undefined;
  failed: boolean;
  onRetry: () => void;
  onPick: (step: Step) => void;
}) {
  const { t } = useTranslation();
  if (!info && failed) {
    return (
      <div className="deposit__failed">
        <p className="sheet__text">{t('deposit.infoError')}</p>
        <button type="button" className="button button--ghost" onClick={onRetry}>
          {t('deposit.retry')}
        </button>
      </div>
    );
  }
  return (
    <>
      {info?.demo && (
        <p className="deposit__demo" role="note" data-testid="deposit-demo-notice">
          {t('deposit.demoNotice')}
        </p>
      )}
      <p className="sheet__text deposit__lead">{t('deposit.text')}</p>
      <ul className="deposit__methods" aria-busy={!info}>
        {METHODS.map((method) => {
          if (!info) {
            return (
              <li key={method}>
                <span className="skeleton deposit__method-skeleton" />
              </li>
            );
          }
          const mode = method === 'gifts' ? giftsMode(info) : methodMode(info, method);
          return (
            <li key={method}>
              <button
                type="button"
                className="deposit-method"
                data-method={method}
                disabled={mode === 'off'}
                data-testid={`deposit-method-${method}`}
                onClick={() => onPick(method === 'gifts' ? { name: 'gifts' } : { name: 'amount', method })}
              >
                <MethodMark method={method} />
                <span className="deposit-method__text">
                  <span className="deposit-method__title">{t(`deposit.methods.${method}.title`)}</span>
                  <span className="deposit-method__hint">{t(`deposit.methods.${method}.text`)}</span>
                </span>
                {mode === 'demo' && <span className="deposit__badge">{t('deposit.demoBadge')}</span>}
                {mode === 'off' && (
                  <span className="deposit__badge deposit__badge--muted">{t('deposit.unavailable')}</span>
                )}
                {mode !== 'off' && (
                  <span className="deposit-method__chevron">
                    <ChevronRight />
                  </span>
                )}
              </button>
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** A method's mark: the TON coin, CryptoBot's, or a gift. */
export function MethodMark({ method }: { method: DepositMethod | 'gifts' }) {
  return (
    <span className="deposit-method__mark" data-method={method} aria-hidden="true">
      {method === 'ton' && <TonIcon size={40} />}
      {method === 'cryptobot' && <CryptoBotMark />}
      {method === 'gifts' && <GiftMarkSmall />}
    </span>
  );
}
