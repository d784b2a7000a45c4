import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonAddress } from '../../lib/ton';
import { WalletIcon } from '../wallet/icons';
import { loadWalletRuntime, walletAtom } from '../wallet/state';

/** The TON step's wallet line: which wallet pays, or 'Wallet not connected' with a connect button. */
export function WalletLine({ alert }: { alert: boolean }) {
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
