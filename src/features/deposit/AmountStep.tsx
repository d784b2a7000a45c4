import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { DepositInfo, DepositMethod } from '../../../contract/deposit.ts';
import { formatTon as canonicalTon, parseTon, tryParseTon } from '../../../contract/money.ts';
import { OfflineError } from '../../api';
import { apiErrorText } from '../../lib/api-error';
import { formatTon } from '../../lib/format';
import { answeredBetweenTaps, runMoneyAction } from '../../lib/money-action';
import { openExternalLink } from '../../lib/telegram';
import { TonIcon } from '../../lib/ui/TonIcon';
import { queryKeys } from '../../state/queries';
import { queryClient } from '../../state/store';
import { loadWalletRuntime } from '../wallet/state';
import { createCryptobotInvoice, createDemoDeposit, methodMode } from './api';
import { MethodMark } from './MethodStep';
import { WalletLine } from './WalletLine';

/** One-tap amounts in the amount step, in TON. */
const QUICK_AMOUNTS = [1, 5, 10, 50] as const;

interface AmountStepProps {
  info: DepositInfo;
  method: DepositMethod;
  busy: boolean;
  setBusy: (busy: boolean) => void;
  onSent: (amount: string, invoiceUrl: string | null, baseline: string | null) => void;
}

/**
 * Step 2: the amount, checked against the server's minimum and maximum, then sent the method's way: a demo
 * deposit, a TON transfer from the connected wallet (connecting one first when there is none, then going on
 * without a second tap), or a CryptoBot invoice opened outside the app.
 */
export function AmountStep({ info, method, busy, setBusy, onSent }: AmountStepProps) {
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
    // one deposit per tap: guarded here, at the tap, before the busy state has rendered
    const intent = `deposit:${method}:${amount}`;
    const run = runMoneyAction('deposit', intent, () => send(intent, amount, nano, baseline));
    if (!run) return;
    setBusy(true);
    try {
      await run;
    } finally {
      setBusy(false);
    }
  };

  /** The deposit itself: the demo credit, the wallet's transfer, or the CryptoBot invoice. */
  const send = async (
    intent: string,
    amount: string,
    nano: bigint,
    baseline: string | null,
  ): Promise<void> => {
    if (mode === 'demo') {
      try {
        await createDemoDeposit(amount, method);
      } catch (failure) {
        console.error('Demo deposit failed', failure);
        setError(failure instanceof OfflineError ? apiErrorText(failure) : t('deposit.failed'));
        return;
      }
      onSent(amount, null, baseline);
    } else if (method === 'ton' && info.ton) {
      const runtime = await loadWalletRuntime().catch(() => null);
      if (!runtime) {
        setWalletMissing(true);
        return;
      }
      if (!runtime.isConnected()) {
        // no wallet yet: open the connection, and go on with this deposit once one is connected
        setWalletMissing(true);
        if (!(await runtime.connectAndWait())) {
          // the player closed the connection: tapping Deposit again is a new tap, however soon
          answeredBetweenTaps(intent);
          return;
        }
        setWalletMissing(false);
      }
      try {
        await runtime.sendTransfer({
          address: info.ton.address,
          amountNano: nano.toString(),
          comment: info.ton.comment,
        });
      } catch {
        // declined or failed in the wallet: TON Connect has said so; the loading just stops (spec §8), and
        // the next tap is a new one
        answeredBetweenTaps(intent);
        return;
      }
      onSent(amount, null, baseline);
    } else {
      let invoiceUrl: string;
      try {
        invoiceUrl = (await createCryptobotInvoice(amount)).invoiceUrl;
      } catch (failure) {
        console.error('CryptoBot invoice failed', failure);
        window.alert(failure instanceof OfflineError ? apiErrorText(failure) : t('deposit.invoiceError'));
        answeredBetweenTaps(intent);
        return;
      }
      openExternalLink(invoiceUrl);
      onSent(amount, invoiceUrl, baseline);
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
