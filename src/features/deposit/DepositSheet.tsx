import { useAtomValue } from 'jotai';
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DepositInfo, DepositMethod } from '../../../contract/deposit.ts';
import { formatTon as canonicalTon, parseTon, tryParseTon } from '../../../contract/money.ts';
import { formatTon } from '../../lib/format';
import { openExternalLink } from '../../lib/telegram';
import { buttonAddress } from '../../lib/ton';
import { TonIcon } from '../../lib/ui/TonIcon';
import { queryKeys } from '../../state/queries';
import { queryClient } from '../../state/store';
import { WalletIcon } from '../wallet/icons';
import { loadWalletRuntime, walletAtom } from '../wallet/state';
import { createCryptobotInvoice, createDemoDeposit, depositInfoAtom, methodMode } from './api';
import { BackArrow, BigCheck, ChevronRight, CryptoBotMark, GiftMarkSmall } from './icons';
import { useDepositCredits } from './useDepositCredits';
import './deposit.css';

/** The credited check shows 1.2 s, then the sheet closes (spec §4, §9). */
export const CREDITED_SHOWN_MS = 1200;
/** One-tap amounts in the amount step, in TON. */
const QUICK_AMOUNTS = [1, 5, 10, 50] as const;

type Step =
  | { name: 'select' }
  | { name: 'gifts' }
  | { name: 'amount'; method: DepositMethod }
  | {
      name: 'waiting';
      method: DepositMethod;
      /** TON, exact decimal text */
      amount: string;
      /** the CryptoBot invoice, to open again */
      invoiceUrl: string | null;
      /** the balance when the deposit was sent (to notice a credit missed while the socket was down) */
      baseline: string | null;
    }
  | { name: 'credited'; amount: string };

interface DepositSheetProps {
  open: boolean;
  onClose: () => void;
}

/**
 * The deposit bottom sheet (spec §2, §4): choose a method (TON, CryptoBot, gifts), enter an amount, wait
 * for the credit (pushed over the deposit socket), then a check mark for 1.2 s and the sheet closes.
 * In demo mode the demo provider stands in for the wallet or the invoice, and the sheet says so.
 */
export function DepositSheet({ open, onClose }: DepositSheetProps) {
  // Mounted only while open: every opening starts from the method choice.
  return open ? <DepositFlow onClose={onClose} /> : null;
}

function DepositFlow({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const infoQuery = useAtomValue(depositInfoAtom);
  const info = infoQuery.data;
  const [step, setStep] = useState<Step>({ name: 'select' });
  const [busy, setBusy] = useState(false);

  useDepositCredits({
    onCredited: (message) =>
      setStep((current) =>
        current.name === 'waiting' ? { name: 'credited', amount: message.amount } : current,
      ),
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
          <MethodList
            info={info}
            failed={infoQuery.isError}
            onRetry={() => void infoQuery.refetch()}
            onPick={setStep}
          />
        )}
        {step.name === 'gifts' && <GiftsInfo onBack={() => setStep({ name: 'select' })} />}
        {step.name === 'amount' && info && (
          <AmountForm
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
          <Status
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
          </Status>
        )}
        {step.name === 'credited' && (
          <Status
            testId="deposit-credited"
            visual={
              <span className="deposit__check">
                <BigCheck />
              </span>
            }
            title={t('deposit.credited')}
            amount={step.amount}
          />
        )}
      </div>
    </div>
  );
}

const METHODS = ['ton', 'cryptobot', 'gifts'] as const;

function MethodList({
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
          const mode = method === 'gifts' ? 'soon' : methodMode(info, method);
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
                {mode === 'soon' && (
                  <span className="deposit__badge deposit__badge--muted">{t('deposit.soon')}</span>
                )}
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

function MethodMark({ method }: { method: DepositMethod | 'gifts' }) {
  return (
    <span className="deposit-method__mark" data-method={method} aria-hidden="true">
      {method === 'ton' && <TonIcon size={40} />}
      {method === 'cryptobot' && <CryptoBotMark />}
      {method === 'gifts' && <GiftMarkSmall />}
    </span>
  );
}

function GiftsInfo({ onBack }: { onBack: () => void }) {
  const { t } = useTranslation();
  return (
    <Status
      testId="deposit-gifts"
      visual={
        <span className="deposit-method__mark deposit__status-mark" data-method="gifts">
          <GiftMarkSmall size={30} />
        </span>
      }
      title={t('deposit.methods.gifts.title')}
      text={t('deposit.giftsInfo')}
    >
      <button type="button" className="button button--ghost deposit__wide" onClick={onBack}>
        {t('deposit.back')}
      </button>
    </Status>
  );
}

interface AmountFormProps {
  info: DepositInfo;
  method: DepositMethod;
  busy: boolean;
  setBusy: (busy: boolean) => void;
  onSent: (amount: string, invoiceUrl: string | null, baseline: string | null) => void;
}

function AmountForm({ info, method, busy, setBusy, onSent }: AmountFormProps) {
  const { t } = useTranslation();
  const inputId = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [walletMissing, setWalletMissing] = useState(false);
  const mode = methodMode(info, method);
  const needsWallet = method === 'ton' && mode === 'real';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || text.trim() === '') return;
    const nano = tryParseTon(text);
    if (nano === null || nano < parseTon(info.minAmount)) {
      setError(t('deposit.minAmount', { min: formatTon(info.minAmount, 0) }));
      return;
    }
    if (nano > parseTon(info.maxAmount)) {
      setError(t('deposit.maxAmount', { max: formatTon(info.maxAmount, 0) }));
      return;
    }
    // the exact amount typed, in the API's canonical form ("12.50" → "12.5")
    const amount = canonicalTon(nano);
    setError(null);
    setWalletMissing(false);
    const baseline = queryClient.getQueryData<string>(queryKeys.balance) ?? null;
    setBusy(true);
    try {
      if (mode === 'demo') {
        try {
          await createDemoDeposit(amount, method);
        } catch (failure) {
          console.error('Demo deposit failed', failure);
          setError(t('deposit.failed'));
          return;
        }
        onSent(amount, null, baseline);
      } else if (method === 'ton' && info.ton) {
        const runtime = await loadWalletRuntime().catch(() => null);
        if (!runtime?.isConnected()) {
          setWalletMissing(true);
          return;
        }
        try {
          await runtime.sendTransfer({
            address: info.ton.address,
            amountNano: nano.toString(),
            comment: info.ton.comment,
          });
        } catch {
          // declined or failed in the wallet: TON Connect has said so; the loading just stops (spec §8)
          return;
        }
        onSent(amount, null, baseline);
      } else {
        let invoiceUrl: string;
        try {
          invoiceUrl = (await createCryptobotInvoice(amount)).invoiceUrl;
        } catch (failure) {
          console.error('CryptoBot invoice failed', failure);
          window.alert(t('deposit.invoiceError'));
          return;
        }
        openExternalLink(invoiceUrl);
        onSent(amount, invoiceUrl, baseline);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="deposit__form" onSubmit={(event) => void submit(event)} noValidate>
      <div className="deposit__chosen">
        <MethodMark method={method} />
        <span className="deposit-method__title">{t(`deposit.methods.${method}.title`)}</span>
      </div>
      {mode === 'demo' && (
        <p className="deposit__demo" role="note" data-testid="deposit-demo-notice">
          {t('deposit.demoNotice')}
        </p>
      )}
      <label className="deposit__label" htmlFor={inputId}>
        {t('deposit.amountLabel')}
      </label>
      <div className="deposit__field">
        <input
          id={inputId}
          className="deposit__input"
          type="number"
          min={0}
          step="any"
          inputMode="decimal"
          placeholder="0.00"
          autoComplete="off"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setError(null);
          }}
          aria-invalid={error ? true : undefined}
          data-testid="deposit-amount"
        />
        <span className="deposit__unit">
          <TonIcon size={18} />
          TON
        </span>
      </div>
      <div className="deposit__chips">
        {QUICK_AMOUNTS.map((value) => (
          <button
            key={value}
            type="button"
            className="deposit__chip"
            aria-pressed={Number(text) === value}
            onClick={() => {
              setText(String(value));
              setError(null);
            }}
          >
            {value}
          </button>
        ))}
      </div>
      {needsWallet && <WalletLine alert={walletMissing} />}
      {error && (
        <p className="deposit__error" role="alert">
          {error}
        </p>
      )}
      <button
        type="submit"
        className="button deposit__wide deposit__submit"
        disabled={text.trim() === '' || busy}
        aria-busy={busy || undefined}
        data-testid="deposit-submit"
      >
        {busy ? <span className="deposit__spinner" aria-hidden="true" /> : null}
        {t('deposit.submit')}
      </button>
    </form>
  );
}

/** The TON step's wallet line: which wallet pays, or 'Wallet not connected' with a connect button. */
function WalletLine({ alert }: { alert: boolean }) {
  const { t } = useTranslation();
  const wallet = useAtomValue(walletAtom);

  useEffect(() => {
    loadWalletRuntime().catch((error: unknown) => console.error('Wallet failed to load', error));
  }, []);

  if (wallet.status === 'connected') {
    return (
      <div className="deposit__wallet" data-testid="deposit-wallet" data-state="connected">
        <WalletIcon size={18} />
        <span className="deposit__wallet-text">{t('deposit.fromWallet')}</span>
        <span className="deposit__wallet-address" title={wallet.address}>
          {buttonAddress(wallet.address)}
        </span>
      </div>
    );
  }
  return (
    <div
      className="deposit__wallet"
      data-testid="deposit-wallet"
      data-state={wallet.status}
      data-alert={alert || undefined}
      role={alert ? 'alert' : undefined}
    >
      <WalletIcon size={18} />
      <span className="deposit__wallet-text">
        {wallet.status === 'loading' ? t('wallet.restoring') : t('deposit.walletNotConnected')}
      </span>
      {wallet.status === 'disconnected' && (
        <button
          type="button"
          className="deposit__link"
          onClick={() => void loadWalletRuntime().then((runtime) => runtime.connect())}
          data-testid="deposit-connect-wallet"
        >
          {t('wallet.connect')}
        </button>
      )}
    </div>
  );
}

function Status({
  testId,
  visual,
  title,
  text,
  amount,
  children,
}: {
  testId: string;
  visual: ReactNode;
  title: string;
  text?: string;
  amount?: string;
  children?: ReactNode;
}) {
  return (
    <div className="deposit__status" data-testid={testId} role="status">
      {visual}
      <h3 className="deposit__status-title">{title}</h3>
      {text && <p className="deposit__status-text">{text}</p>}
      {amount !== undefined && (
        <p className="deposit__status-amount">
          <TonIcon size={18} />+{formatTon(amount, 2)} TON
        </p>
      )}
      {children && <div className="deposit__actions">{children}</div>}
    </div>
  );
}
